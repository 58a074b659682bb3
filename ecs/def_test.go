package ecs_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
)

func circleDef() ecs.BodyDef {
	d := ecs.DefaultBodyDef()
	d.Shape = components.Circle(0.5)
	return d
}

func boxDef() ecs.BodyDef {
	d := ecs.DefaultBodyDef()
	d.Shape = components.Box(0.5, 0.25)
	return d
}

func entityCount(w *arche.World) int { return w.Stats().Entities.Used }

// get returns component T of e.
func get[T any](w *arche.World, e arche.Entity) *T {
	m := generic.NewMap[T](w)
	return m.Get(e)
}

type badDef struct {
	name  string
	def   ecs.BodyDef
	field string
}

// badDefs lists refused definitions and the field the error must name: NaN,
// +Inf and -Inf in every float field, bad sizes, densities, masses,
// friction, restitution, damping, type, shape kind and StartAsleep.
func badDefs() []badDef {
	var out []badDef
	nonFinite := map[string]float64{"NaN": math.NaN(), "+Inf": math.Inf(1), "-Inf": math.Inf(-1)}
	floats := []struct {
		field string
		box   bool
		set   func(d *ecs.BodyDef, x float64)
	}{
		{"Position", false, func(d *ecs.BodyDef, x float64) { d.Position.X = x }},
		{"Position", false, func(d *ecs.BodyDef, x float64) { d.Position.Y = x }},
		{"Angle", false, func(d *ecs.BodyDef, x float64) { d.Angle = x }},
		{"LinearVelocity", false, func(d *ecs.BodyDef, x float64) { d.LinearVelocity.X = x }},
		{"LinearVelocity", false, func(d *ecs.BodyDef, x float64) { d.LinearVelocity.Y = x }},
		{"AngularVelocity", false, func(d *ecs.BodyDef, x float64) { d.AngularVelocity = x }},
		{"Shape.Radius", false, func(d *ecs.BodyDef, x float64) { d.Shape.Radius = x }},
		{"Shape.Half", true, func(d *ecs.BodyDef, x float64) { d.Shape.Half.X = x }},
		{"Shape.Half", true, func(d *ecs.BodyDef, x float64) { d.Shape.Half.Y = x }},
		{"Density", false, func(d *ecs.BodyDef, x float64) { d.Density = x }},
		{"Mass", false, func(d *ecs.BodyDef, x float64) { d.Mass = x }},
		{"Friction", false, func(d *ecs.BodyDef, x float64) { d.Friction = x }},
		{"Restitution", false, func(d *ecs.BodyDef, x float64) { d.Restitution = x }},
		{"LinearDamping", false, func(d *ecs.BodyDef, x float64) { d.LinearDamping = x }},
		{"AngularDamping", false, func(d *ecs.BodyDef, x float64) { d.AngularDamping = x }},
		{"GravityScale", false, func(d *ecs.BodyDef, x float64) { d.GravityScale = x }},
	}
	for i, f := range floats {
		for vname, x := range nonFinite {
			d := circleDef()
			if f.box {
				d = boxDef()
			}
			f.set(&d, x)
			out = append(out, badDef{f.field + " " + vname + string(rune('a'+i)), d, f.field})
		}
	}
	mod := func(base ecs.BodyDef, f func(d *ecs.BodyDef)) ecs.BodyDef { f(&base); return base }
	out = append(out,
		badDef{"zero radius", mod(circleDef(), func(d *ecs.BodyDef) { d.Shape.Radius = 0 }), "Shape.Radius"},
		badDef{"negative radius", mod(circleDef(), func(d *ecs.BodyDef) { d.Shape.Radius = -1 }), "Shape.Radius"},
		badDef{"zero half x", mod(boxDef(), func(d *ecs.BodyDef) { d.Shape.Half.X = 0 }), "Shape.Half"},
		badDef{"negative half y", mod(boxDef(), func(d *ecs.BodyDef) { d.Shape.Half.Y = -0.1 }), "Shape.Half"},
		badDef{"no shape", ecs.DefaultBodyDef(), "Shape.Kind"},
		badDef{"unknown shape kind", mod(circleDef(), func(d *ecs.BodyDef) { d.Shape.Kind = 9 }), "Shape.Kind"},
		badDef{"unknown type", mod(circleDef(), func(d *ecs.BodyDef) { d.Type = 3 }), "Type"},
		badDef{"negative density", mod(circleDef(), func(d *ecs.BodyDef) { d.Density = -1 }), "Density"},
		badDef{"negative density, static", mod(circleDef(), func(d *ecs.BodyDef) { d.Type = components.Static; d.Density = -1 }), "Density"},
		badDef{"negative mass", mod(circleDef(), func(d *ecs.BodyDef) { d.Mass = -2 }), "Mass"},
		badDef{"dynamic without mass", mod(boxDef(), func(d *ecs.BodyDef) { d.Density = 0 }), "Density"},
		badDef{"density underflows to zero mass", mod(circleDef(), func(d *ecs.BodyDef) {
			d.Shape.Radius = 1e-6
			d.Density = 1e-320
		}), "Density"},
		// A subnormal mass is > 0 and finite, but 1/m is +Inf: the body
		// would be refused by the physics (ecs.Report, "Mass is not usable")
		// on every tick, so the definition must be refused up front.
		badDef{"density gives a mass with infinite inverse", mod(circleDef(), func(d *ecs.BodyDef) {
			d.Shape.Radius = 1e-6
			d.Density = 1e-310
		}), "Density"},
		badDef{"mass with infinite inverse", mod(circleDef(), func(d *ecs.BodyDef) { d.Mass = 1e-310 }), "Mass"},
		badDef{"inertia with infinite inverse", mod(circleDef(), func(d *ecs.BodyDef) {
			d.Shape.Radius = 1e-6
			d.Mass = 1e-300
		}), "Mass"},
		badDef{"density overflows to infinite mass", mod(boxDef(), func(d *ecs.BodyDef) {
			d.Shape.Half = components.V(1e200, 1e200)
			d.Density = 1e10
		}), "Density"},
		badDef{"negative friction", mod(circleDef(), func(d *ecs.BodyDef) { d.Friction = -0.1 }), "Friction"},
		badDef{"restitution below 0", mod(circleDef(), func(d *ecs.BodyDef) { d.Restitution = -0.01 }), "Restitution"},
		badDef{"restitution above 1", mod(circleDef(), func(d *ecs.BodyDef) { d.Restitution = 1.01 }), "Restitution"},
		badDef{"negative linear damping", mod(circleDef(), func(d *ecs.BodyDef) { d.LinearDamping = -1 }), "LinearDamping"},
		badDef{"negative angular damping", mod(circleDef(), func(d *ecs.BodyDef) { d.AngularDamping = -1 }), "AngularDamping"},
		badDef{"static starting asleep", mod(circleDef(), func(d *ecs.BodyDef) { d.Type = components.Static; d.StartAsleep = true }), "StartAsleep"},
		badDef{"kinematic starting asleep", mod(circleDef(), func(d *ecs.BodyDef) { d.Type = components.Kinematic; d.StartAsleep = true }), "StartAsleep"},
	)
	return out
}

// TestValidateNamesField: every refused definition gives a *DefError whose
// Field names the offending field (and whose message contains it), and
// NewBody refuses it leaving the world unchanged (same entity count, zero
// entity returned).
func TestValidateNamesField(t *testing.T) {
	w := arche.NewWorld()
	// A valid body first, so that the component types are registered.
	if _, err := ecs.NewBody(&w, circleDef()); err != nil {
		t.Fatal(err)
	}
	for _, tc := range badDefs() {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.def.Validate()
			var de *ecs.DefError
			if !errors.As(err, &de) {
				t.Fatalf("Validate() = %v, want a *DefError naming %s", err, tc.field)
			}
			if de.Field != tc.field || de.Index != -1 {
				t.Errorf("Validate(): Field %q Index %d, want %q and -1 (%v)", de.Field, de.Index, tc.field, err)
			}
			if !strings.Contains(err.Error(), tc.field) {
				t.Errorf("message %q does not name %s", err.Error(), tc.field)
			}
			n := entityCount(&w)
			e, err := ecs.NewBody(&w, tc.def)
			if !errors.As(err, &de) || de.Field != tc.field {
				t.Errorf("NewBody error %v, want a *DefError naming %s", err, tc.field)
			}
			if !e.IsZero() {
				t.Errorf("NewBody returned entity %v with its error", e)
			}
			if got := entityCount(&w); got != n {
				t.Errorf("refused NewBody changed the entity count %d -> %d", n, got)
			}
		})
	}
}

// TestValidateAccepts: edge values that must be accepted.
func TestValidateAccepts(t *testing.T) {
	mod := func(base ecs.BodyDef, f func(d *ecs.BodyDef)) ecs.BodyDef { f(&base); return base }
	cases := map[string]ecs.BodyDef{
		"default circle":            circleDef(),
		"default box":               boxDef(),
		"static without density":    mod(boxDef(), func(d *ecs.BodyDef) { d.Type = components.Static; d.Density = 0 }),
		"kinematic without density": mod(boxDef(), func(d *ecs.BodyDef) { d.Type = components.Kinematic; d.Density = 0 }),
		"mass instead of density":   mod(boxDef(), func(d *ecs.BodyDef) { d.Density = 0; d.Mass = 3 }),
		"friction 0, restitution 1": mod(circleDef(), func(d *ecs.BodyDef) { d.Friction = 0; d.Restitution = 1 }),
		"negative gravity scale":    mod(circleDef(), func(d *ecs.BodyDef) { d.GravityScale = -1 }),
		"dynamic starting asleep":   mod(circleDef(), func(d *ecs.BodyDef) { d.StartAsleep = true }),
		"huge angle":                mod(circleDef(), func(d *ecs.BodyDef) { d.Angle = 1e6 }),
	}
	for name, d := range cases {
		if err := d.Validate(); err != nil {
			t.Errorf("%s: Validate() = %v, want nil", name, err)
		}
	}
}

// TestNewBodyComponents: the seven components hold what the definition says:
// mass = density * area, inertia from the shape (m r^2 / 2, m (w^2 + h^2) /
// 12), inverses consistent (1e-12 relative); static and kinematic bodies have
// zero mass; a static body's velocity is zeroed; StartAsleep tags Sleeping.
func TestNewBodyComponents(t *testing.T) {
	w := arche.NewWorld()
	d := boxDef()
	d.Position, d.Angle = components.V(1, 2), 0.3
	d.LinearVelocity, d.AngularVelocity = components.V(3, 4), 5
	d.Density, d.Friction, d.Restitution = 2, 0.4, 0.7
	d.LinearDamping, d.AngularDamping, d.GravityScale = 0.1, 0.2, 0.5
	e, err := ecs.NewBody(&w, d)
	if err != nil {
		t.Fatal(err)
	}
	xf := get[components.Transform](&w, e)
	if xf.P != d.Position || math.Abs(xf.Angle()-0.3) > 1e-15 {
		t.Errorf("transform %+v, want position %v angle 0.3", *xf, d.Position)
	}
	v := get[components.Velocity](&w, e)
	if v.Lin != d.LinearVelocity || v.Ang != 5 {
		t.Errorf("velocity %+v", *v)
	}
	m := get[components.Mass](&w, e)
	wantM := 2 * 1.0 * 0.5 // density * (1 x 0.5)
	wantI := wantM * (1*1 + 0.5*0.5) / 12
	if math.Abs(m.Mass-wantM) > 1e-12*wantM || math.Abs(m.Inertia-wantI) > 1e-12*wantI ||
		math.Abs(m.InvMass*m.Mass-1) > 1e-12 || math.Abs(m.InvInertia*m.Inertia-1) > 1e-12 {
		t.Errorf("mass %+v, want mass %v inertia %v and inverses", *m, wantM, wantI)
	}
	mat := get[components.Material](&w, e)
	if *mat != (components.Material{Friction: 0.4, Restitution: 0.7}) {
		t.Errorf("material %+v", *mat)
	}
	b := get[components.Body](&w, e)
	if *b != (components.Body{Type: components.Dynamic, GravityScale: 0.5, LinearDamping: 0.1, AngularDamping: 0.2}) {
		t.Errorf("body %+v", *b)
	}
	if ecs.IsSleeping(&w, e) || !ecs.IsBody(&w, e) {
		t.Errorf("new body: sleeping %v, IsBody %v", ecs.IsSleeping(&w, e), ecs.IsBody(&w, e))
	}

	c := circleDef()
	c.Mass, c.Density = 3, 0
	ec, _ := ecs.NewBody(&w, c)
	mc := get[components.Mass](&w, ec)
	if mc.Mass != 3 || math.Abs(mc.Inertia-3*0.5*0.25) > 1e-12 {
		t.Errorf("explicit mass: %+v, want mass 3, inertia 0.375", *mc)
	}

	for _, typ := range []components.BodyType{components.Static, components.Kinematic} {
		s := boxDef()
		s.Type = typ
		s.LinearVelocity = components.V(1, 1)
		es, err := ecs.NewBody(&w, s)
		if err != nil {
			t.Fatal(err)
		}
		if m := get[components.Mass](&w, es); *m != (components.Mass{}) {
			t.Errorf("%v body has mass %+v, want zero", typ, *m)
		}
		v := get[components.Velocity](&w, es)
		if typ == components.Static && *v != (components.Velocity{}) {
			t.Errorf("static body velocity %+v, want zero", *v)
		}
		if typ == components.Kinematic && v.Lin != components.V(1, 1) {
			t.Errorf("kinematic body velocity %+v, want (1, 1)", *v)
		}
	}

	a := circleDef()
	a.StartAsleep = true
	ea, _ := ecs.NewBody(&w, a)
	if !ecs.IsSleeping(&w, ea) || !ecs.IsBody(&w, ea) {
		t.Errorf("StartAsleep body: sleeping %v, IsBody %v", ecs.IsSleeping(&w, ea), ecs.IsBody(&w, ea))
	}
}

// TestNewBodiesAllOrNothing: one bad definition in a batch creates nothing:
// the error is a *DefError with that definition's index and field, the
// message says "body definition <index>", the entity count is unchanged and
// dst comes back as it was.
func TestNewBodiesAllOrNothing(t *testing.T) {
	w := arche.NewWorld()
	for _, bad := range badDefs()[:5] {
		for _, at := range []int{0, 3, 5} {
			defs := make([]ecs.BodyDef, 6)
			for i := range defs {
				defs[i] = circleDef()
				defs[i].StartAsleep = i%2 == 1
			}
			defs[at] = bad.def
			prev, _ := ecs.NewBody(&w, circleDef())
			dst := []arche.Entity{prev}
			n := entityCount(&w)
			out, err := ecs.NewBodies(&w, defs, dst)
			var de *ecs.DefError
			if !errors.As(err, &de) || de.Index != at || de.Field != bad.field {
				t.Fatalf("%s at %d: error %v, want *DefError index %d field %s", bad.name, at, err, at, bad.field)
			}
			if want := "body definition " + string(rune('0'+at)); !strings.Contains(err.Error(), want) {
				t.Errorf("message %q does not contain %q", err.Error(), want)
			}
			if got := entityCount(&w); got != n {
				t.Errorf("%s at %d: entity count %d -> %d: a refused batch created bodies", bad.name, at, n, got)
			}
			if len(out) != 1 || out[0] != prev {
				t.Errorf("%s at %d: dst changed to %v", bad.name, at, out)
			}
		}
	}
}

// TestNewBodiesOrder: a valid batch mixing awake and asleep definitions
// creates one entity per definition, in order, appended to dst, with the
// right poses and sleep tags.
func TestNewBodiesOrder(t *testing.T) {
	w := arche.NewWorld()
	defs := make([]ecs.BodyDef, 10)
	for i := range defs {
		defs[i] = circleDef()
		defs[i].Position = components.V(float64(i), 0)
		defs[i].StartAsleep = i >= 3 && i < 7
	}
	dst := []arche.Entity{{}}
	out, err := ecs.NewBodies(&w, defs, dst)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) != 11 || entityCount(&w) != 10 {
		t.Fatalf("got %d entities (world %d), want 11 in dst and 10 in the world", len(out), entityCount(&w))
	}
	xf := generic.NewMap[components.Transform](&w)
	for i, e := range out[1:] {
		if p := xf.Get(e).P; p.X != float64(i) {
			t.Errorf("entity %d at %v, want x = %d", i, p, i)
		}
		if ecs.IsSleeping(&w, e) != defs[i].StartAsleep {
			t.Errorf("entity %d sleeping %v, want %v", i, ecs.IsSleeping(&w, e), defs[i].StartAsleep)
		}
	}
}
