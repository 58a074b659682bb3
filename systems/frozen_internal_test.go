package systems

import (
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
	"unsafe"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
)

// frozenTwin is one of the two worlds of TestFrozenRowsKeptMatchRebuilt.
type frozenTwin struct {
	w    arche.World
	p    *Physics
	ents []arche.Entity
	m    *generic.Map7[components.Transform, components.Velocity, components.Shape,
		components.Material, components.Body, components.Mass, components.Force]
}

func newFrozenTwin(t *testing.T) *frozenTwin {
	p, err := New(DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	tw := &frozenTwin{w: arche.NewWorld(), p: p}
	p.Initialize(&tw.w)
	t.Cleanup(func() { p.Finalize(&tw.w) })
	m := generic.NewMap7[components.Transform, components.Velocity, components.Shape,
		components.Material, components.Body, components.Mass, components.Force](&tw.w)
	tw.m = &m
	add := func(d ecs.BodyDef) {
		e, err := ecs.NewBody(&tw.w, d)
		if err != nil {
			t.Fatal(err)
		}
		tw.ents = append(tw.ents, e)
	}
	ground := ecs.DefaultBodyDef()
	ground.Type, ground.Shape, ground.Position = components.Static, components.Box(30, 0.5), components.V(0, -0.5)
	add(ground)
	for i := 0; i < 6; i++ { // posts, and a kinematic at rest
		d := ecs.DefaultBodyDef()
		d.Type, d.Shape, d.Position = components.Static, components.Box(0.2, 1), components.V(-25+10*float64(i), 1)
		if i == 5 {
			d.Type = components.Kinematic
		}
		add(d)
	}
	for i := 0; i < 120; i++ { // a sleeping carpet of boxes and circles
		d := ecs.DefaultBodyDef()
		d.Position = components.V(-20+0.5*float64(i%60), 0.25+0.5*float64(i/60))
		d.Shape = components.Box(0.25, 0.25)
		if i%3 == 0 {
			d.Shape = components.Circle(0.25)
			d.AngularDamping = 3 // so that a woken one stops rolling
		}
		d.StartAsleep = true
		add(d)
	}
	for i := 0; i < 4; i++ { // awake balls that land on it
		d := ecs.DefaultBodyDef()
		d.Shape, d.Position = components.Circle(0.3), components.V(-18+9*float64(i), 4+float64(i))
		add(d)
	}
	return tw
}

// edit applies edit k to body e of the twin. Both twins create and remove
// the same entities in the same order, so e names the same body in both.
func (tw *frozenTwin) edit(t *testing.T, k int, e arche.Entity, x float64) {
	if !tw.w.Alive(e) || !ecs.IsBody(&tw.w, e) {
		return
	}
	xf, v, s, mat, b, m, f := tw.m.Get(e)
	switch k {
	case 0:
		xf.P.X += x
	case 1:
		xf.R = components.NewRot(x)
	case 2:
		if s.Kind == components.ShapeBox {
			s.Half.X *= 1 + 0.1*math.Abs(x)
		} else {
			s.Radius *= 1 + 0.1*math.Abs(x)
		}
	case 3:
		mat.Friction = math.Abs(x)
	case 4:
		mat.Restitution = math.Min(1, math.Abs(x))
	case 5:
		b.LinearDamping = math.Abs(x)
	case 6:
		b.GravityScale = 0.5 + math.Abs(x)
	case 7:
		if b.Type == components.Dynamic {
			m.InvMass *= 2
		}
	case 8:
		v.Lin.Y = x
	case 9:
		f.Torque = x
	case 10:
		xf.P.Y = math.NaN() // reported, then mended below
	case 11:
		if math.IsNaN(xf.P.Y) {
			xf.P.Y = 3
		}
	case 12:
		v.Ang = math.Copysign(0, -1) // -0: a value equal to the old one
	case 13:
		if err := ecs.RemoveBody(&tw.w, e); err != nil {
			t.Fatal(err)
		}
	case 14:
		d := ecs.DefaultBodyDef()
		d.Shape, d.Position, d.StartAsleep = components.Box(0.2, 0.2), components.V(x*10, 6), true
		ne, err := ecs.NewBody(&tw.w, d)
		if err != nil {
			t.Fatal(err)
		}
		tw.ents = append(tw.ents, ne)
	case 15:
		if err := ecs.Wake(&tw.w, e); err != nil && !ecs.IsSleeping(&tw.w, e) {
			_ = err // awake already
		}
	case 16:
		if b.Type == components.Kinematic && v.Lin.X == 0 {
			v.Lin.X = x // set moving
		} else if b.Type == components.Kinematic {
			v.Lin.X = 0 // stopped: frozen again
		}
	case 17:
		if b.Type == components.Dynamic {
			b.Type = components.Static
		}
	case 18:
		b.AngularDamping = math.NaN() // reported, then mended below
	case 19:
		m.InvMass = 0 // unusable for a dynamic body: reported, then mended below
	case 21:
		// The same body again, under a new entity: when e is the last of
		// its archetype, the new one takes its place in the query.
		d := ecs.DefaultBodyDef()
		d.Type, d.Shape, d.Position, d.Angle = b.Type, *s, xf.P, xf.Angle()
		d.Friction, d.Restitution, d.Filter, d.Sensor, d.StartAsleep = mat.Friction, mat.Restitution, mat.Filter, mat.Sensor, ecs.IsSleeping(&tw.w, e)
		d.LinearDamping, d.AngularDamping, d.GravityScale = b.LinearDamping, b.AngularDamping, b.GravityScale
		if err := ecs.RemoveBody(&tw.w, e); err != nil {
			t.Fatal(err)
		}
		ne, err := ecs.NewBody(&tw.w, d)
		if err != nil {
			t.Fatal(err)
		}
		tw.ents = append(tw.ents, ne)
	case 22:
		// A game tags a static body, or a resting kinematic, asleep.
		if b.Type != components.Dynamic && !ecs.IsSleeping(&tw.w, e) {
			tw.w.Add(e, arche.ComponentID[components.Sleeping](&tw.w))
		}
	case 23:
		// A filter that now ignores the default category, or a group, or
		// a body made a sensor or solid again.
		if x > 0.5 {
			mat.Sensor = !mat.Sensor
		} else if x > 0 {
			mat.Filter.Ignore ^= components.DefaultCategory
		} else {
			mat.Filter.Group = int32(3 * x)
		}
	case 20:
		if math.IsNaN(b.AngularDamping) {
			b.AngularDamping = 0
		}
		if m.InvMass == 0 && m.Mass > 0 {
			m.InvMass = 1 / m.Mass
		}
	}
}

// TestFrozenRowsKeptMatchRebuilt runs two worlds side by side through the
// same random edits between ticks (poses, shapes, materials and filters, settings,
// masses, velocities and forces of static, kinematic, sleeping and awake
// bodies; NaN and its mending; -0; removals, new sleepers, wakes), one
// keeping unchanged frozen rows and one rebuilding them every tick, and
// requires the same frozen rows and the same bits for every body after
// every tick. It also requires that rows were kept in most ticks, so that
// the first world did use the path under test.
func TestFrozenRowsKeptMatchRebuilt(t *testing.T) {
	defer func() { rebuildFrozen = false }()
	kept, rebuilt := newFrozenTwin(t), newFrozenTwin(t)
	r := rand.New(rand.NewPCG(3, 4))
	const kinds, rounds, every = 24, 5 * 24, 40
	var edits [kinds]int
	var last arche.Entity
	ticks, keptTicks := rounds*every, 0
	for tick := 0; tick < ticks; tick++ {
		if tick%every == 0 {
			// Mend what the last edit broke (a NaN, an unusable mass),
			// then edit mostly a frozen body (static, resting kinematic
			// or asleep), at any place in the rows, sometimes any body;
			// never the ground, which would send everything falling.
			kept.edit(t, 11, last, 0)
			rebuilt.edit(t, 11, last, 0)
			kept.edit(t, 20, last, 0)
			rebuilt.edit(t, 20, last, 0)
			e := kept.ents[r.IntN(len(kept.ents))]
			k, x := tick/every%kinds, 2*r.Float64()-1
			if rows := kept.p.frozen.ents; len(rows) > 0 && k == 21 {
				e = rows[len(rows)-1]
			} else if len(rows) > 0 && r.IntN(4) != 0 {
				e = rows[r.IntN(len(rows))]
			}
			if e == kept.ents[0] {
				e = kept.ents[1]
			}
			edits[k]++
			kept.edit(t, k, e, x)
			rebuilt.edit(t, k, e, x)
			last = e
		}
		rebuildFrozen = false
		kept.p.Update(&kept.w)
		if !kept.p.frozen.dirty {
			keptTicks++
		}
		rebuildFrozen = true
		rebuilt.p.Update(&rebuilt.w)

		a, b := &kept.p.frozen, &rebuilt.p.frozen
		// Printed, the floats compare by bits (-0 prints as -0).
		if !slices.Equal(a.ents, b.ents) || fmt.Sprint(a.proxies) != fmt.Sprint(b.proxies) ||
			fmt.Sprint(a.mats) != fmt.Sprint(b.mats) || fmt.Sprint(a.aabbs) != fmt.Sprint(b.aabbs) ||
			!slices.Equal(a.sleeping, b.sleeping) || a.statics != b.statics {
			t.Fatalf("tick %d: the kept frozen rows (%d, %d static) differ from the rebuilt ones (%d, %d static)",
				tick, len(a.ents), a.statics, len(b.ents), b.statics)
		}
		for i, e := range kept.ents {
			if !kept.w.Alive(e) || !ecs.IsBody(&kept.w, e) {
				continue
			}
			xa, va, _, _, _, _, _ := kept.m.Get(e)
			xb, vb, _, _, _, _, _ := rebuilt.m.Get(rebuilt.ents[i])
			if bits(xa.P.X) != bits(xb.P.X) || bits(xa.P.Y) != bits(xb.P.Y) || bits(xa.R.S) != bits(xb.R.S) ||
				bits(va.Lin.X) != bits(vb.Lin.X) || bits(va.Ang) != bits(vb.Ang) ||
				ecs.IsSleeping(&kept.w, e) != ecs.IsSleeping(&rebuilt.w, rebuilt.ents[i]) {
				t.Fatalf("tick %d: body %d differs: %+v %+v against %+v %+v", tick, i, *xa, *va, *xb, *vb)
			}
		}
	}
	t.Logf("frozen rows kept whole in %d of %d ticks; edits by kind %v", keptTicks, ticks, edits)
	if keptTicks < ticks/4 {
		t.Errorf("frozen rows kept whole in %d of %d ticks: the test did not exercise keeping them", keptTicks, ticks)
	}
}

func bits(x float64) uint64 { return math.Float64bits(x) }

// TestFrozenSrcSameSeesEveryField changes each field of the seven
// components in turn, found by reflection so that a field added to a
// component later is covered too, and requires frozenSrc.same to see the
// change; and it requires 0 and -0 to differ and a NaN to equal itself.
func TestFrozenSrcSameSeesEveryField(t *testing.T) {
	base := frozenSrc{
		t: components.NewTransform(1, 2, 0.3), v: components.Velocity{Lin: components.V(4, 5), Ang: 6},
		s: components.Box(0.5, 0.25), mat: components.Material{Friction: 0.6, Restitution: 0.2},
		b: components.Body{Type: components.Kinematic, GravityScale: 1, LinearDamping: 0.1, AngularDamping: 0.2},
		m: components.Mass{Mass: 2, Inertia: 3, InvMass: 0.5, InvInertia: 1.0 / 3},
		f: components.Force{F: components.V(7, 8), Torque: 9},
	}
	same := func(r, c *frozenSrc) bool { return r.same(&c.t, &c.v, &c.s, &c.mat, &c.b, &c.m, &c.f) }
	if c := base; !same(&base, &c) {
		t.Fatal("a copy does not compare the same")
	}
	var leaves [][]int
	var walk func(tp reflect.Type, path []int)
	walk = func(tp reflect.Type, path []int) {
		if tp.Kind() != reflect.Struct {
			leaves = append(leaves, append([]int(nil), path...))
			return
		}
		for i := 0; i < tp.NumField(); i++ {
			walk(tp.Field(i).Type, append(path, i))
		}
	}
	walk(reflect.TypeOf(base), nil)
	for _, path := range leaves {
		c := base
		v := reflect.ValueOf(&c).Elem().FieldByIndex(path)
		v = reflect.NewAt(v.Type(), unsafe.Pointer(v.UnsafeAddr())).Elem() // frozenSrc's fields are unexported
		switch v.Kind() {
		case reflect.Float64:
			v.SetFloat(v.Float() + 1)
		case reflect.Uint8, reflect.Uint64:
			v.SetUint(v.Uint() ^ 1)
		case reflect.Int32:
			v.SetInt(v.Int() ^ 1)
		case reflect.Bool:
			v.SetBool(!v.Bool())
		default:
			t.Fatalf("field %v of kind %v: the test does not know how to change it", path, v.Kind())
		}
		if same(&base, &c) {
			t.Errorf("frozenSrc.same does not see a change of field %v (%s)", path, reflect.TypeOf(base).FieldByIndex(path).Name)
		}
	}
	if len(leaves) != 28 {
		t.Errorf("%d fields, want 28 (update the count when a component gains a field)", len(leaves))
	}
	zero, neg := base, base
	zero.t.P.X, neg.t.P.X = 0, math.Copysign(0, -1)
	if same(&zero, &neg) {
		t.Error("frozenSrc.same takes -0 for 0")
	}
	nan := base
	nan.m.Inertia = math.NaN()
	if c := nan; !same(&nan, &c) {
		t.Error("frozenSrc.same does not take a NaN for itself")
	}
}

// TestLeftOutBodyKeepsFrozenRows: a dynamic box left out for a bad value
// stands as a frozen row (addLeftOut), and that row is kept tick after tick
// while the value stays bad, with the rows after it: the frozen rows are not
// made anew (their generation stays), though the box is reported every
// tick. Dropped and made anew each tick, one such box had a level of 20 000
// sleeping boxes rebuilt every tick. Mended, the box leaves the frozen rows
// and moves again.
func TestLeftOutBodyKeepsFrozenRows(t *testing.T) {
	p, w := internalWorld(t, DefaultConfig())
	ground := ecs.DefaultBodyDef()
	ground.Type, ground.Shape, ground.Position = components.Static, components.Box(30, 0.5), components.V(0, -0.5)
	if _, err := ecs.NewBody(w, ground); err != nil {
		t.Fatal(err)
	}
	d := ecs.DefaultBodyDef()
	d.Shape, d.Position = components.Box(0.25, 0.25), components.V(0, 3)
	bad, err := ecs.NewBody(w, d)
	if err != nil {
		t.Fatal(err)
	}
	for i := range 200 { // a sleeping carpet, walked after the awake bodies
		d := ecs.DefaultBodyDef()
		d.Shape, d.Position, d.StartAsleep = components.Box(0.2, 0.2), components.V(-20+0.5*float64(i%80), 0.2+0.4*float64(i/80)), true
		if _, err := ecs.NewBody(w, d); err != nil {
			t.Fatal(err)
		}
	}
	mats := generic.NewMap[components.Material](w)
	xfs := generic.NewMap[components.Transform](w)
	report := generic.NewResource[ecs.Report](w)
	p.Update(w)
	mats.Get(bad).Friction = math.NaN()
	var gen uint64
	for tick := 1; tick <= 12; tick++ {
		p.Update(w)
		if errs := report.Get().Errors; len(errs) != 1 || errs[0].Entity != bad || errs[0].Field != "Material" {
			t.Fatalf("tick %d: report %v, want the box's Material", tick, errs)
		}
		if tick == 2 {
			gen = p.frozen.gen
		}
		if tick > 2 && p.frozen.gen != gen {
			t.Fatalf("tick %d: the frozen rows were made anew (generation %d, %d at tick 2)", tick, p.frozen.gen, gen)
		}
		if p.frozen.bads != 1 {
			t.Fatalf("tick %d: %d rows of left-out bodies, want 1", tick, p.frozen.bads)
		}
	}
	y := xfs.Get(bad).P.Y
	mats.Get(bad).Friction = 0.6
	for range 10 {
		p.Update(w)
	}
	if errs := report.Get().Errors; len(errs) != 0 || p.frozen.bads != 0 {
		t.Fatalf("mended: report %v, %d rows of left-out bodies", errs, p.frozen.bads)
	}
	if got := xfs.Get(bad).P.Y; !(got < y-0.1) {
		t.Fatalf("mended, the box is at y = %v, was %v: want it falling", got, y)
	}
}
