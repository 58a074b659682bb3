package systems_test

import (
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// TestPhysicsSleeperWokenInTheTickItIsReached: a box starts 1 cm above a
// sleeping box, moving down at 5, 20 or 60 m/s (8 cm to 1 m a tick). It is
// created there, or moved there from elsewhere (awake, or asleep on the
// ground), or it floats 5 cm above (beyond the 2 cm at which a body at rest
// wakes a sleeper) and is given the velocity. None of these was moving
// towards the sleeper the tick before, so the sleeper must wake in this tick:
// it did a tick late, and the box went 7.5, 33 and 99 cm into it. The box
// stops on the sleeper (within 1 cm), and the tick says it went back to wake
// it (Profile.Rewakes).
func TestPhysicsSleeperWokenInTheTickItIsReached(t *testing.T) {
	for _, how := range []string{"created", "moved awake", "moved asleep", "kicked"} {
		for _, v := range []float64{5, 20, 60} {
			s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
			s.add(ground())
			under := s.add(dynBox(0, 0.5, 0.5, 0.5))
			var other arche.Entity
			switch how {
			case "moved awake":
				d := dynBox(-6, 20, 0.5, 0.5)
				d.GravityScale = 0 // stays awake up there
				other = s.add(d)
			case "moved asleep":
				other = s.add(dynBox(6, 0.5, 0.5, 0.5))
			case "kicked":
				d := dynBox(-6, 5, 0.5, 0.5)
				d.GravityScale = 0
				other = s.add(d)
			}
			s.run(60)
			if !s.asleep(under) {
				t.Fatalf("%s: the lower box is not asleep after 1 s", how)
			}
			top := components.V(0.2, 1.51)
			var box arche.Entity
			switch how {
			case "created":
				d := dynBox(top.X, top.Y, 0.5, 0.5)
				d.LinearVelocity = components.V(0, -v)
				box = s.add(d)
			case "moved awake", "moved asleep":
				box = other
				if err := ecs.SetTransform(s.w, box, top, 0); err != nil {
					t.Fatal(err)
				}
				if err := ecs.SetVelocity(s.w, box, components.V(0, -v), 0); err != nil {
					t.Fatal(err)
				}
			case "kicked":
				box = other
				if err := ecs.SetTransform(s.w, box, top.Add(components.V(0, 0.04)), 0); err != nil {
					t.Fatal(err)
				}
				if err := ecs.SetVelocity(s.w, box, components.Vec2{}, 0); err != nil {
					t.Fatal(err)
				}
				s.run(1)
				if !s.asleep(under) {
					t.Fatalf("kicked: a box at rest 5 cm above woke the sleeper")
				}
				if err := ecs.SetVelocity(s.w, box, components.V(0, -v), 0); err != nil {
					t.Fatal(err)
				}
			}
			s.run(1)
			rewakes := s.profile().Rewakes
			minGap := math.Inf(1)
			for i := 0; i < 4; i++ {
				minGap = math.Min(minGap, s.pos(box).Y-s.pos(under).Y-1)
				s.run(1)
			}
			if minGap < -0.01 || rewakes != 1 {
				t.Errorf("%s at %2.0f m/s: went %.3f m into the sleeping box (want < 0.01), the first tick went back %d times to wake it (want 1)",
					how, v, -minGap, rewakes)
			}
		}
	}
}

// TestPhysicsWakeKeepsRestingPileStill: a stack of 10 boxes and a pyramid
// of base 8 fall asleep, then the game wakes one body of each (ecs.Wake,
// which wakes its island). Nothing else changed, so the first ticks awake
// must hold them as still as they were: their fastest point stays under a
// tenth of the sleep threshold over 10 ticks. The sleeping contacts used to
// lose their impulses, the woken pile was solved from zero in its first tick,
// and the stack's top sank 6.5 mm and moved at 0.17 m/s.
func TestPhysicsWakeKeepsRestingPileStill(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
	s.add(ground())
	stack := boxStack(s, -8, 10)
	var pyramid []arche.Entity
	for row := 0; row < 8; row++ {
		for i := 0; i < 8-row; i++ {
			pyramid = append(pyramid, s.add(dynBox(4+(float64(i)-float64(7-row)/2)*1.05, 0.5+float64(row), 0.5, 0.5)))
		}
	}
	all := append(append([]arche.Entity{}, stack...), pyramid...)
	runUntilAsleep(t, s, all, 600)
	// Asleep for a second: nothing of the last awake tick is left to
	// warm start from but what the islands kept.
	s.run(60)
	if !allAsleep(s, all) {
		t.Fatal("the stack and the pyramid did not stay asleep")
	}
	cfg := systems.DefaultConfig()
	for _, pile := range [][]arche.Entity{stack, pyramid} {
		if err := ecs.Wake(s.w, pile[0]); err != nil {
			t.Fatal(err)
		}
	}
	fastest := 0.0
	for k := 0; k < 10; k++ {
		s.run(1)
		if !noneAsleep(s, all) {
			t.Fatalf("tick %d after the wake: a body is asleep again", k+1)
		}
		for _, e := range all {
			v := s.v(e)
			fastest = math.Max(fastest, v.Lin.Len()+math.Sqrt2*0.5*math.Abs(v.Ang))
		}
	}
	if fastest > 0.1*cfg.SleepThreshold {
		t.Errorf("woken resting piles moved at up to %.4f m/s in their first 10 ticks, want < %.4f", fastest, 0.1*cfg.SleepThreshold)
	}
}

// TestPhysicsBodyPutIntoSleeperPushesItOut: a 1 m box sleeps on the ground,
// and the game puts a static or a resting kinematic 1 m box 0.3 m into it:
// moved there (ecs.SetTransform, or a write of its Transform) or created
// there. The sleeper must wake and be pushed out, as an awake box is. A
// moved static woke only the sleepers at its old place, and a kinematic
// body at rest counted as support whatever its depth: the box slept on,
// 0.3 m inside the other, for good.
func TestPhysicsBodyPutIntoSleeperPushesItOut(t *testing.T) {
	for _, how := range []string{"static moved", "static written", "static created", "kinematic moved", "kinematic created"} {
		s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
		s.add(ground())
		box := s.add(dynBox(0, 0.5, 0.5, 0.5))
		other := staticBox(10, 2, 0.5, 0.5, 0)
		if how == "kinematic moved" || how == "kinematic created" {
			other.Type = components.Kinematic
		}
		var e arche.Entity
		if how != "static created" && how != "kinematic created" {
			e = s.add(other)
		}
		s.run(90)
		if !s.asleep(box) {
			t.Fatalf("%s: the box is not asleep after 1.5 s", how)
		}
		at := components.V(0.7, 0.5)
		switch how {
		case "static moved", "kinematic moved":
			if err := ecs.SetTransform(s.w, e, at, 0); err != nil {
				t.Fatal(err)
			}
		case "static written":
			s.xf.Get(e).P = at
		default:
			other.Position = at
			s.add(other)
		}
		s.run(60)
		if x := s.pos(box).X; x > -0.29 {
			t.Errorf("%s: the box is still %.3f m inside the other after 1 s (asleep: %v)", how, x+0.3, s.asleep(box))
		}
	}
}

// TestPhysicsSleepsOnRestingKinematicUnderLoad: a light plank under a box a
// thousand times denser settles 4 cm into what it rests on, deeper than the
// speculative distance. On a resting kinematic body it must sleep as it does
// on a static one, and stay asleep: waking sleepers by their depth in a
// resting kinematic (to push out one the game put there) woke this pile 39
// times in 20 s.
func TestPhysicsSleepsOnRestingKinematicUnderLoad(t *testing.T) {
	for _, typ := range []components.BodyType{components.Static, components.Kinematic} {
		s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
		g := ground()
		g.Type = typ
		s.add(g)
		plank := s.add(dynBox(0, 0.1, 0.5, 0.1))
		heavy := dynBox(0, 0.7, 0.5, 0.5)
		heavy.Density = 1000
		s.add(heavy)
		asleep, wakes := 0, 0
		was := false
		for i := 0; i < 1200; i++ {
			s.run(1)
			now := s.asleep(plank)
			if now {
				asleep++
			}
			if was && !now {
				wakes++
			}
			was = now
		}
		if asleep < 1100 || wakes > 0 {
			t.Errorf("on a resting %v body: the plank slept %d of 1200 ticks and woke %d times, want >= 1100 and 0",
				typ, asleep, wakes)
		}
	}
}

// TestPhysicsSetMassOnRestingStack: the game divides the mass of the top
// box of a resting stack of 5 by 1 000 (ecs.SetMass), with the stack awake
// and with it asleep. The light box must stay on the stack: its fastest
// speed over the next second stays under the sleep threshold. Last tick's
// impulses, warm-started unscaled, held up a box a thousand times heavier
// and threw the light one off at several m/s.
func TestPhysicsSetMassOnRestingStack(t *testing.T) {
	for _, asleep := range []bool{false, true} {
		s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
		s.add(ground())
		stack := boxStack(s, 0, 5)
		s.run(30)
		if asleep {
			runUntilAsleep(t, s, stack, 300)
		} else if !noneAsleep(s, stack) {
			t.Fatal("the stack fell asleep too soon")
		}
		top := stack[4]
		m := s.mass.Get(top)
		if err := ecs.SetMass(s.w, top, m.Mass/1000, m.Inertia/1000); err != nil {
			t.Fatal(err)
		}
		if asleep {
			if err := ecs.Wake(s.w, top); err != nil {
				t.Fatal(err)
			}
		}
		fastest := 0.0
		for i := 0; i < 60; i++ {
			s.run(1)
			fastest = math.Max(fastest, s.v(top).Lin.Len())
		}
		if y := s.pos(top).Y; fastest > systems.DefaultConfig().SleepThreshold || math.Abs(y-4.5) > 0.05 {
			t.Errorf("asleep %v: the top box, made 1 000 times lighter, moved at up to %.3f m/s and ended at y = %.3f (want 4.5)",
				asleep, fastest, y)
		}
	}
}
