package systems_test

import (
	"math"
	"math/rand/v2"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// randomScene returns n random bodies in a 6 m x 6 m square above y = 0:
// boxes and circles of 0.05 to 0.6 m, 10 % kinematic, 5 % static, random
// angles, velocities up to 20 m/s and spins up to 20 rad/s, restitution and
// friction anywhere in their ranges, some tiny and some heavy. Packed that
// densely they overlap heavily at the start.
func randomScene(rng *rand.Rand, n int) []ecs.BodyDef {
	defs := make([]ecs.BodyDef, 0, n)
	for i := 0; i < n; i++ {
		d := ecs.DefaultBodyDef()
		d.Position = components.V(6*rng.Float64()-3, 6*rng.Float64())
		d.Angle = 2 * math.Pi * rng.Float64()
		size := 0.05 + 0.55*rng.Float64()
		if rng.IntN(2) == 0 {
			d.Shape = components.Box(size, 0.05+0.55*rng.Float64())
		} else {
			d.Shape = components.Circle(size)
		}
		d.LinearVelocity = components.V(40*rng.Float64()-20, 40*rng.Float64()-20)
		d.AngularVelocity = 40*rng.Float64() - 20
		d.Friction = 2 * rng.Float64()
		d.Restitution = rng.Float64()
		d.Density = math.Pow(10, 3*rng.Float64()-1) // 0.1 to 100
		switch r := rng.Float64(); {
		case r < 0.05:
			d.Type = components.Static
		case r < 0.15:
			d.Type = components.Kinematic
		}
		defs = append(defs, d)
	}
	return defs
}

// TestPhysicsNoNaN runs a random scene of 200 mixed bodies, many overlapping
// deeply at the start, for 300 ticks on 2 workers, inside a container, and
// checks after every tick that every pose is valid (finite, unit rotation)
// and every velocity finite and at most MaxLinearSpeed, and that the engine
// reports no refused body.
func TestPhysicsNoNaN(t *testing.T) {
	for seed := uint64(1); seed <= 1; seed++ {
		s := newSim(t, func(c *systems.Config) { c.Workers = 2 })
		containerScene(s, 4)
		es, err := ecs.NewBodies(s.w, randomScene(rand.New(rand.NewPCG(seed, 7)), 200), nil)
		if err != nil {
			t.Fatal(err)
		}
		maxSpeed := 0.0
		for i := 1; i <= 300; i++ {
			s.run(1)
			for _, e := range es {
				if !s.finiteBody(e) {
					t.Fatalf("seed %d tick %d: body %v has a bad state: %+v %+v", seed, i, e, s.transform(e), s.v(e))
				}
				maxSpeed = math.Max(maxSpeed, s.v(e).Lin.Len())
			}
			if errs := s.report(); len(errs) != 0 {
				t.Fatalf("seed %d tick %d: engine refused bodies it created itself: %v", seed, i, errs)
			}
		}
		if maxSpeed > s.cfg.MaxLinearSpeed*(1+1e-12) {
			t.Errorf("seed %d: a body reached %.1f m/s, above MaxLinearSpeed %.0f", seed, maxSpeed, s.cfg.MaxLinearSpeed)
		}
		t.Logf("seed %d: 300 ticks, no NaN; largest speed %.1f m/s; contacts at the end %d", seed, maxSpeed, s.profile().Contacts)
	}
}

// tag is a game component kept on an entity whose body is removed.
type tag struct{ N int }

// TestPhysicsRemoveBody removes the bottom box of a two-box stack in the
// middle of a run, in three ways: arche's World.RemoveEntity, ecs.RemoveBody
// (the entity lives on with a game component), and RemoveEntity followed by a
// new body that recycles the removed entity's ID. The box that rested on it
// must fall freely from the next tick on (vertical velocity v0 - g t within
// 1e-9 relative: the contact and its warm-start impulses vanish at once), the
// contact count drops, and nothing panics. This must hold too when the stack
// is asleep: Box2D v3 wakes the bodies touching a destroyed body
// (b2DestroyBody destroys its contacts with wakeBodies = true), otherwise the
// top box would hang in the air, asleep, for ever. With
// ecs.RemoveBody, later ticks leave the entity alone: its game component is
// intact and it carries no body component.
func TestPhysicsRemoveBody(t *testing.T) {
	for _, how := range []string{"RemoveEntity", "RemoveBody", "RemoveEntity+recycle"} {
		for _, asleep := range []bool{false, true} {
			name := how
			if asleep {
				name += ", stack asleep"
			}
			t.Run(name, func(t *testing.T) {
				s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
				s.add(staticBox(-5, -0.5, 1, 0.5, 0)) // ground away from the stack
				// The stack stands on a static pillar whose top is y = 0.
				s.add(staticBox(0, -0.5, 0.5, 0.5, 0))
				bottom := s.add(dynBox(0, 0.5, 0.5, 0.5))
				top := s.add(dynBox(0, 1.5, 0.5, 0.5))
				tags := generic.NewMap[tag](s.w)
				s.w.Add(bottom, tags.ID())
				tags.Get(bottom).N = 42
				s.run(5)
				if asleep {
					for i := 0; i < 120 && !s.asleep(top); i++ {
						s.run(1)
					}
					if !s.asleep(top) || !s.asleep(bottom) {
						t.Fatalf("the stack did not fall asleep in 2 s")
					}
				}
				before := s.profile().Contacts
				yTop, v0 := s.pos(top).Y, s.v(top).Lin.Y
				switch how {
				case "RemoveEntity":
					s.w.RemoveEntity(bottom)
				case "RemoveBody":
					if err := ecs.RemoveBody(s.w, bottom); err != nil {
						t.Fatal(err)
					}
				case "RemoveEntity+recycle":
					s.w.RemoveEntity(bottom)
					// A new small body far away reuses the entity ID.
					nb := s.add(dynCircle(5, 10, 0.1))
					if nb.ID() != bottom.ID() {
						t.Logf("ID not recycled (%v vs %v)", nb, bottom)
					}
				}
				s.run(1)
				after := s.profile().Contacts
				// Fall for 0.25 s: the top box drops through where the
				// bottom box was, onto the pillar, 1 m below.
				for i := 0; i < 15; i++ {
					s.run(1)
				}
				v := s.v(top).Lin.Y
				fall := yTop - s.pos(top).Y
				if !asleep && (before != 2 || after != 0) {
					t.Errorf("contacts: %d before the removal (want 2), %d after (want 0)", before, after)
				}
				t.Logf("contacts before %d / after removal %d; after 16 ticks the top box fell %.4f m, vy %.4f, asleep %v",
					before, after, fall, v, s.asleep(top))
				// After 16 ticks free fall: v = v0 - K h g with K = 64
				// substeps (v0 the settling velocity at the removal, 0 asleep).
				wantV := v0 - 64*(s.cfg.Dt/4)*10
				if math.Abs(v-wantV) > 1e-9*math.Abs(wantV) {
					t.Errorf("top box vertical velocity %.6f after 16 ticks without its support, want free fall %.6f (tolerance 1e-9 relative)", v, wantV)
				}
				if s.asleep(top) {
					t.Errorf("the top box stays asleep in the air after its support was removed")
				}
				if how == "RemoveBody" {
					if !s.w.Alive(bottom) || !tags.Has(bottom) || tags.Get(bottom).N != 42 {
						t.Errorf("ecs.RemoveBody lost the entity or its game component")
					}
					if ecs.IsBody(s.w, bottom) || s.w.Has(bottom, arche.ComponentID[components.Transform](s.w)) {
						t.Errorf("ecs.RemoveBody left body components on the entity")
					}
				}
				s.run(60)
				if !s.finiteBody(top) {
					t.Errorf("top box state not finite")
				}
			})
		}
	}
}

// TestPhysicsRemoveStaticSupport removes the static pillar under a box
// (awake, and asleep). The box must fall freely on the next ticks (vertical
// velocity v0 - g t within 1e-9 relative after 16 ticks). Box2D v3 wakes the
// bodies touching a destroyed body, static ones included ("Wake bodies
// attached to this body, even if this body is static", b2DestroyBody).
func TestPhysicsRemoveStaticSupport(t *testing.T) {
	for _, asleep := range []bool{false, true} {
		s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
		pillar := s.add(staticBox(0, -0.5, 0.5, 0.5, 0))
		box := s.add(dynBox(0, 0.5, 0.5, 0.5))
		s.run(5)
		for i := 0; asleep && i < 120 && !s.asleep(box); i++ {
			s.run(1)
		}
		if asleep != s.asleep(box) {
			t.Fatalf("setup: box asleep %v, want %v", s.asleep(box), asleep)
		}
		v0 := s.v(box).Lin.Y
		s.w.RemoveEntity(pillar)
		s.run(16)
		wantV := v0 - 64*(s.cfg.Dt/4)*10
		v := s.v(box).Lin.Y
		t.Logf("asleep %v: after removing the static support and 16 ticks: vy %.4f (free fall %.4f), box asleep %v", asleep, v, wantV, s.asleep(box))
		if math.Abs(v-wantV) > 1e-9*math.Abs(wantV) {
			t.Errorf("asleep %v: box vertical velocity %.6f 16 ticks after its static support was removed, want free fall %.6f", asleep, v, wantV)
		}
	}
}

// TestPhysicsNoTunnelling: fast bodies do not pass through thin static walls:
// the speculative margin grows with the speed (margin 0.02 m + dt |v|), so a
// contact exists before the crossing. A ball (r = 0.1) and a small box
// (0.2 m) at 50, 150 and 399 m/s (just under MaxLinearSpeed) against a 5 cm
// wall, no gravity: after 1 s they are on their side of the wall.
func TestPhysicsNoTunnelling(t *testing.T) {
	for _, speed := range []float64{50, 150, 399} {
		for _, circle := range []bool{true, false} {
			s := newSim(t, func(c *systems.Config) { c.Workers = 1; c.Gravity = components.Vec2{} })
			s.add(staticBox(0, 0, 0.025, 3, 0))
			d := dynBox(-5, 0.3, 0.1, 0.1)
			if circle {
				d = dynCircle(-5, 0.3, 0.1)
			}
			d.LinearVelocity = components.V(speed, 0)
			b := s.add(d)
			for i := 0; i < 60; i++ {
				s.run(1)
				if x := s.pos(b).X; x > -0.025 {
					t.Fatalf("speed %.0f circle %v: tick %d: body at x = %.4f went into or through the wall (face at -0.025)", speed, circle, i, x)
				}
			}
		}
	}
}

// TestPhysicsColouredIslandGainsABody: a coloured island (solved by the wide
// kernels where the CPU has AVX2), then a tick with exactly one more awake
// body. The solver's zero row for static sides once sat at the old body
// count, so one more body became that row: the new body was lost from the
// step and the sleep stage indexed past the rows. Now the new ball falls
// like a free body, and the stack keeps its 8 boxes at rest on the ground.
func TestPhysicsColouredIslandGainsABody(t *testing.T) {
	for _, workers := range []int{1, 2} {
		s := newSim(t, func(c *systems.Config) { c.Workers = workers; c.LargeIslandContacts = 4 })
		s.add(ground())
		var boxes []arche.Entity
		for i := 0; i < 8; i++ {
			boxes = append(boxes, s.add(dynBox(float64(i)-4, 0.5, 0.5, 0.5)))
		}
		s.run(2)
		if c := s.profile().Colored; c == 0 {
			t.Fatalf("workers %d: the row of boxes was not coloured (profile %+v)", workers, s.profile())
		}
		ball := s.add(dynCircle(10, 5, 0.5))
		s.run(1)
		if got := s.profile().Bodies; got != 9 {
			t.Errorf("workers %d: %d moving bodies in the step, want 9", workers, got)
		}
		// One tick of free fall from rest: v = g dt.
		if v := s.v(ball).Lin.Y; math.Abs(v-(-10.0/60)) > 1e-12 {
			t.Errorf("workers %d: ball vy = %.15g after one tick, want %.15g", workers, v, -10.0/60)
		}
		s.run(30)
		for i, b := range boxes {
			if p := s.pos(b); math.Abs(p.Y-0.5) > 0.01 || math.Abs(p.X-(float64(i)-4)) > 0.01 {
				t.Errorf("workers %d: box %d at %v, want (%d, 0.5)", workers, i, p, i-4)
			}
		}
	}
}
