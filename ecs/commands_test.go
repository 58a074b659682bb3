package ecs_test

import (
	"errors"
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
)

// commands lists every command with valid arguments.
var commands = []struct {
	name string
	call func(w *arche.World, e arche.Entity) error
}{
	{"ApplyForce", func(w *arche.World, e arche.Entity) error {
		return ecs.ApplyForce(w, e, components.V(1, 0), components.V(0, 1))
	}},
	{"ApplyForceToCenter", func(w *arche.World, e arche.Entity) error {
		return ecs.ApplyForceToCenter(w, e, components.V(1, 0))
	}},
	{"ApplyTorque", func(w *arche.World, e arche.Entity) error { return ecs.ApplyTorque(w, e, 1) }},
	{"ApplyLinearImpulse", func(w *arche.World, e arche.Entity) error {
		return ecs.ApplyLinearImpulse(w, e, components.V(1, 0), components.V(0, 1))
	}},
	{"ApplyAngularImpulse", func(w *arche.World, e arche.Entity) error { return ecs.ApplyAngularImpulse(w, e, 1) }},
	{"SetTransform", func(w *arche.World, e arche.Entity) error { return ecs.SetTransform(w, e, components.V(1, 2), 0.5) }},
	{"SetVelocity", func(w *arche.World, e arche.Entity) error { return ecs.SetVelocity(w, e, components.V(1, 2), 0.5) }},
	{"SetMass", func(w *arche.World, e arche.Entity) error { return ecs.SetMass(w, e, 2, 0.5) }},
	{"Wake", func(w *arche.World, e arche.Entity) error { return ecs.Wake(w, e) }},
	{"RemoveBody", func(w *arche.World, e arche.Entity) error { return ecs.RemoveBody(w, e) }},
}

// TestCommandsOnRemovedEntity: every command on a removed entity, on an
// entity whose body was removed with RemoveBody, and on a plain entity that
// never had a body returns an error wrapping ecs.ErrNotBody, and changes
// nothing (entity count).
func TestCommandsOnRemovedEntity(t *testing.T) {
	for _, c := range commands {
		t.Run(c.name, func(t *testing.T) {
			w := arche.NewWorld()
			removed, _ := ecs.NewBody(&w, circleDef())
			w.RemoveEntity(removed)
			stripped, _ := ecs.NewBody(&w, circleDef())
			if err := ecs.RemoveBody(&w, stripped); err != nil {
				t.Fatal(err)
			}
			plain := w.NewEntity()
			asleepDef := circleDef()
			asleepDef.StartAsleep = true
			removedAsleep, _ := ecs.NewBody(&w, asleepDef)
			w.RemoveEntity(removedAsleep)
			for _, e := range []struct {
				what string
				e    arche.Entity
			}{{"removed", removed}, {"body removed", stripped}, {"never a body", plain}, {"removed asleep", removedAsleep}, {"zero entity", arche.Entity{}}} {
				n := entityCount(&w)
				err := c.call(&w, e.e)
				if !errors.Is(err, ecs.ErrNotBody) {
					t.Errorf("%s on %s entity: error %v, want one wrapping ecs.ErrNotBody", c.name, e.what, err)
				}
				if entityCount(&w) != n {
					t.Errorf("%s on %s entity changed the entity count", c.name, e.what)
				}
				if ecs.IsBody(&w, e.e) || ecs.IsSleeping(&w, e.e) {
					t.Errorf("%s entity: IsBody %v IsSleeping %v, want false", e.what, ecs.IsBody(&w, e.e), ecs.IsSleeping(&w, e.e))
				}
			}
		})
	}
}

// TestCommandsRefuseNonFinite: NaN or Inf arguments are refused with an
// error and leave the body's components unchanged.
func TestCommandsRefuseNonFinite(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	bad := []struct {
		name string
		call func(w *arche.World, e arche.Entity) error
	}{
		{"ApplyForce NaN force", func(w *arche.World, e arche.Entity) error {
			return ecs.ApplyForce(w, e, components.V(nan, 0), components.V(0, 0))
		}},
		{"ApplyForce Inf point", func(w *arche.World, e arche.Entity) error {
			return ecs.ApplyForce(w, e, components.V(1, 0), components.V(0, inf))
		}},
		{"ApplyForceToCenter", func(w *arche.World, e arche.Entity) error {
			return ecs.ApplyForceToCenter(w, e, components.V(0, -inf))
		}},
		{"ApplyTorque", func(w *arche.World, e arche.Entity) error { return ecs.ApplyTorque(w, e, nan) }},
		{"ApplyLinearImpulse", func(w *arche.World, e arche.Entity) error {
			return ecs.ApplyLinearImpulse(w, e, components.V(inf, 0), components.V(0, 0))
		}},
		{"ApplyAngularImpulse", func(w *arche.World, e arche.Entity) error { return ecs.ApplyAngularImpulse(w, e, inf) }},
		{"SetTransform position", func(w *arche.World, e arche.Entity) error {
			return ecs.SetTransform(w, e, components.V(nan, 0), 0)
		}},
		{"SetTransform angle", func(w *arche.World, e arche.Entity) error {
			return ecs.SetTransform(w, e, components.V(0, 0), inf)
		}},
		{"SetVelocity", func(w *arche.World, e arche.Entity) error { return ecs.SetVelocity(w, e, components.V(0, 0), nan) }},
		// Finite arguments whose result overflows: a lever arm of 1e10 m.
		{"ApplyForce torque beyond float64", func(w *arche.World, e arche.Entity) error {
			return ecs.ApplyForce(w, e, components.V(0, 1e308), components.V(1e10, 0))
		}},
		{"ApplyLinearImpulse spin beyond float64", func(w *arche.World, e arche.Entity) error {
			return ecs.ApplyLinearImpulse(w, e, components.V(0, 1e308), components.V(1e10, 0))
		}},
		{"SetMass NaN", func(w *arche.World, e arche.Entity) error { return ecs.SetMass(w, e, nan, 1) }},
		{"SetMass zero inertia", func(w *arche.World, e arche.Entity) error { return ecs.SetMass(w, e, 1, 0) }},
		{"SetMass negative", func(w *arche.World, e arche.Entity) error { return ecs.SetMass(w, e, -1, 1) }},
		// Subnormal: > 0 and finite, but 1/m = +Inf, which the physics then
		// refuses on every tick ("Mass is not usable").
		{"SetMass subnormal mass", func(w *arche.World, e arche.Entity) error { return ecs.SetMass(w, e, 1e-310, 1) }},
		{"SetMass subnormal inertia", func(w *arche.World, e arche.Entity) error { return ecs.SetMass(w, e, 1, 1e-310) }},
	}
	for _, c := range bad {
		w := arche.NewWorld()
		d := circleDef()
		d.StartAsleep = true
		e, _ := ecs.NewBody(&w, d)
		xf, v := *get[components.Transform](&w, e), *get[components.Velocity](&w, e)
		f, m := *get[components.Force](&w, e), *get[components.Mass](&w, e)
		if err := c.call(&w, e); err == nil {
			t.Errorf("%s: accepted (mass now %+v)", c.name, *get[components.Mass](&w, e))
			continue
		}
		if *get[components.Transform](&w, e) != xf || *get[components.Velocity](&w, e) != v ||
			*get[components.Force](&w, e) != f || *get[components.Mass](&w, e) != m {
			t.Errorf("%s: refused command changed the body", c.name)
		}
		if !ecs.IsSleeping(&w, e) {
			t.Errorf("%s: refused command woke the body", c.name)
		}
	}
}

// TestCommandsRefuseOverflowingSums: forces and torques that add up beyond
// float64 over two calls are refused on the second, which leaves the first
// call's total in place.
func TestCommandsRefuseOverflowingSums(t *testing.T) {
	w := arche.NewWorld()
	e, _ := ecs.NewBody(&w, circleDef())
	if err := ecs.ApplyForceToCenter(&w, e, components.V(1e308, 0)); err != nil {
		t.Fatal(err)
	}
	if err := ecs.ApplyTorque(&w, e, -1e308); err != nil {
		t.Fatal(err)
	}
	if err := ecs.ApplyForceToCenter(&w, e, components.V(1e308, 0)); err == nil {
		t.Error("a total force of 2e308 N accepted")
	}
	if err := ecs.ApplyTorque(&w, e, -1e308); err == nil {
		t.Error("a total torque of -2e308 N m accepted")
	}
	if f := *get[components.Force](&w, e); f != (components.Force{F: components.V(1e308, 0), Torque: -1e308}) {
		t.Errorf("force after the refusals %+v, want the first calls' totals", f)
	}
}

// TestCommandsEffects checks what each command does to a dynamic body (mass
// 2 kg, inertia 0.25 kg m^2 after SetMass) and that each wakes it.
func TestCommandsEffects(t *testing.T) {
	w := arche.NewWorld()
	d := circleDef()
	d.Position = components.V(1, 1)
	d.StartAsleep = true
	e, _ := ecs.NewBody(&w, d)
	if err := ecs.SetMass(&w, e, 2, 0.25); err != nil {
		t.Fatal(err)
	}
	if ecs.IsSleeping(&w, e) {
		t.Errorf("SetMass did not wake the body")
	}
	if m := *get[components.Mass](&w, e); m != (components.Mass{Mass: 2, Inertia: 0.25, InvMass: 0.5, InvInertia: 4}) {
		t.Errorf("SetMass: %+v", m)
	}

	sleep := func() { w.Add(e, arche.ComponentID[components.Sleeping](&w)) }
	sleep()
	// Force (2, 0) at (1, 2): lever (0, 1), torque 0 * 0 - 1 * 2 = -2.
	if err := ecs.ApplyForce(&w, e, components.V(2, 0), components.V(1, 2)); err != nil {
		t.Fatal(err)
	}
	if err := ecs.ApplyForceToCenter(&w, e, components.V(0, 3)); err != nil {
		t.Fatal(err)
	}
	if err := ecs.ApplyTorque(&w, e, 0.5); err != nil {
		t.Fatal(err)
	}
	if f := *get[components.Force](&w, e); f != (components.Force{F: components.V(2, 3), Torque: -1.5}) {
		t.Errorf("forces accumulated to %+v, want F (2, 3), torque -1.5", f)
	}
	if ecs.IsSleeping(&w, e) {
		t.Errorf("ApplyForce did not wake the body")
	}

	sleep()
	// Impulse (0, 4) at (2, 1): dv = (0, 2), lever (1, 0), dw = 4 * (1*4 - 0) = 16.
	if err := ecs.ApplyLinearImpulse(&w, e, components.V(0, 4), components.V(2, 1)); err != nil {
		t.Fatal(err)
	}
	if err := ecs.ApplyAngularImpulse(&w, e, 0.5); err != nil {
		t.Fatal(err)
	}
	if v := *get[components.Velocity](&w, e); v != (components.Velocity{Lin: components.V(0, 2), Ang: 18}) {
		t.Errorf("impulses gave velocity %+v, want (0, 2), 18", v)
	}
	if ecs.IsSleeping(&w, e) {
		t.Errorf("ApplyLinearImpulse did not wake the body")
	}

	sleep()
	if err := ecs.SetTransform(&w, e, components.V(-3, 4), math.Pi/2); err != nil {
		t.Fatal(err)
	}
	if xf := *get[components.Transform](&w, e); xf.P != components.V(-3, 4) || math.Abs(xf.Angle()-math.Pi/2) > 1e-15 {
		t.Errorf("SetTransform gave %+v", xf)
	}
	if ecs.IsSleeping(&w, e) {
		t.Errorf("SetTransform did not wake the body")
	}
	sleep()
	if err := ecs.SetVelocity(&w, e, components.V(5, 6), -1); err != nil {
		t.Fatal(err)
	}
	if v := *get[components.Velocity](&w, e); v != (components.Velocity{Lin: components.V(5, 6), Ang: -1}) {
		t.Errorf("SetVelocity gave %+v", v)
	}
	if ecs.IsSleeping(&w, e) {
		t.Errorf("SetVelocity did not wake the body")
	}

	// RemoveBody on a sleeping body removes the tag too; the entity lives.
	sleep()
	if err := ecs.RemoveBody(&w, e); err != nil {
		t.Fatal(err)
	}
	if !w.Alive(e) || ecs.IsBody(&w, e) || ecs.IsSleeping(&w, e) || len(w.Ids(e)) != 0 {
		t.Errorf("after RemoveBody: alive %v, IsBody %v, sleeping %v, components %v", w.Alive(e), ecs.IsBody(&w, e), ecs.IsSleeping(&w, e), w.Ids(e))
	}
}

// TestCommandsStaticAndKinematic: static bodies refuse a velocity and a mass,
// accept a zero velocity; forces and impulses on static and kinematic bodies
// are ignored without error.
func TestCommandsStaticAndKinematic(t *testing.T) {
	w := arche.NewWorld()
	for _, typ := range []components.BodyType{components.Static, components.Kinematic} {
		d := boxDef()
		d.Type = typ
		e, err := ecs.NewBody(&w, d)
		if err != nil {
			t.Fatal(err)
		}
		if err := ecs.SetMass(&w, e, 1, 1); err == nil {
			t.Errorf("%v: SetMass accepted", typ)
		}
		err = ecs.SetVelocity(&w, e, components.V(1, 0), 0)
		if (typ == components.Static) != (err != nil) {
			t.Errorf("%v: SetVelocity non-zero: error %v", typ, err)
		}
		if err := ecs.SetVelocity(&w, e, components.Vec2{}, 0); err != nil {
			t.Errorf("%v: SetVelocity zero: %v", typ, err)
		}
		v0 := *get[components.Velocity](&w, e)
		for _, c := range commands[:5] {
			if err := c.call(&w, e); err != nil {
				t.Errorf("%v: %s: %v", typ, c.name, err)
			}
		}
		if f := *get[components.Force](&w, e); f != (components.Force{}) {
			t.Errorf("%v: forces accumulated %+v, want none", typ, f)
		}
		if v := *get[components.Velocity](&w, e); v != v0 {
			t.Errorf("%v: impulses changed the velocity to %+v", typ, v)
		}
	}
}

// TestGravityResource: SetGravity refuses NaN and a world without the
// physics resources; GetGravity is zero there.
func TestGravityResource(t *testing.T) {
	w := arche.NewWorld()
	if err := ecs.SetGravity(&w, components.V(0, -10)); err == nil {
		t.Errorf("SetGravity on a world without the Gravity resource: no error")
	}
	if g := ecs.GetGravity(&w); g != (components.Vec2{}) {
		t.Errorf("GetGravity without resource = %v, want zero", g)
	}
	w.Resources().Add(arche.ResourceID[ecs.Gravity](&w), &ecs.Gravity{V: components.V(0, -10)})
	if err := ecs.SetGravity(&w, components.V(math.NaN(), 0)); err == nil {
		t.Errorf("SetGravity(NaN) accepted")
	}
	if err := ecs.SetGravity(&w, components.V(1, 2)); err != nil || ecs.GetGravity(&w) != components.V(1, 2) {
		t.Errorf("SetGravity(1, 2): %v, GetGravity %v", err, ecs.GetGravity(&w))
	}
}

// TestStageNames: the stages have their documented names.
func TestStageNames(t *testing.T) {
	want := []string{"gather", "broadphase", "narrowphase", "islands", "solve", "sleep", "scatter", "events"}
	for i, n := range want {
		if got := ecs.Stage(i).String(); got != n {
			t.Errorf("Stage(%d) = %q, want %q", i, got, n)
		}
	}
	if ecs.NumStages.String() != "invalid" || ecs.Stage(-1).String() != "invalid" {
		t.Errorf("out-of-range stages should be \"invalid\"")
	}
}
