package systems_test

import (
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
)

// TestPhysicsSleeperEditedRightAfterFallingAsleep: a game may change a body
// between any two ticks, including the first one after the body fell
// asleep, when ecs.IsSleeping first says so. A 1 m box asleep on the ground
// is lifted 4.5 m, slid 3 m aside off a second box, turned 0.3 rad, or
// shrunk to half its size, by writing its components in that gap or one
// tick later: each time it must wake and end resting on the ground (its
// bottom within 1 cm of y = 0) 2 s later. Edits in the first gap were
// missed, since the body had been awake at the last rebuild of the frozen
// rows: lifted, it hung asleep 4.5 m up.
func TestPhysicsSleeperEditedRightAfterFallingAsleep(t *testing.T) {
	edits := []struct {
		name   string
		edit   func(s *sim, e arche.Entity)
		bottom float64 // its half height once edited
	}{
		{"lifted", func(s *sim, e arche.Entity) { s.xf.Get(e).P.Y += 4.5 }, 0.5},
		{"slid off", func(s *sim, e arche.Entity) { s.xf.Get(e).P.X += 3 }, 0.5},
		{"turned", func(s *sim, e arche.Entity) { s.xf.Get(e).R = components.NewRot(0.3) }, 0.5},
		{"shrunk", func(s *sim, e arche.Entity) {
			m := generic.NewMap[components.Shape](s.w)
			*m.Get(e) = components.Box(0.25, 0.25)
		}, 0.25},
	}
	for _, ed := range edits {
		for _, gap := range []int{0, 1} {
			s := newSim(t, nil)
			s.add(ground())
			n := 1
			if ed.name == "slid off" {
				n = 2 // the top box slides off the bottom one
			}
			es := boxStack(s, 0, n)
			runUntilAsleep(t, s, es, 180)
			s.run(gap)
			top := es[n-1]
			ed.edit(s, top)
			s.run(120)
			got := s.pos(top)
			bottom := got.Y - ed.bottom
			if ed.name == "turned" {
				bottom = got.Y - 0.5*(math.Abs(math.Cos(s.angle(top)))+math.Abs(math.Sin(s.angle(top))))
			}
			t.Logf("%s %d ticks after falling asleep: bottom at %.4f m, angle %.3f, asleep %v", ed.name, gap, bottom, s.angle(top), s.asleep(top))
			if math.Abs(bottom) > 0.01 {
				t.Errorf("%s %d ticks after falling asleep: its bottom is at %.3f m after 2 s (asleep %v), want on the ground",
					ed.name, gap, bottom, s.asleep(top))
			}
		}
	}
}

// TestPhysicsStackCreatedAsleepFallsWhenSupportGoes: a level loaded settled
// creates its stacks asleep (StartAsleep), so they belong to no sleeping
// island. Removing the bottom box of such a stack of three (arche's
// RemoveEntity, ecs.RemoveBody), or moving it away (ecs.SetTransform, which
// wakes it at once, or a write of its Transform), must bring the two above
// down onto the ground: the second box's centre at 0.5 m within 1 cm after
// 2 s. They stayed in the air, asleep.
func TestPhysicsStackCreatedAsleepFallsWhenSupportGoes(t *testing.T) {
	ways := map[string]func(s *sim, e arche.Entity){
		"RemoveEntity": func(s *sim, e arche.Entity) { s.w.RemoveEntity(e) },
		"RemoveBody":   func(s *sim, e arche.Entity) { must(t, ecs.RemoveBody(s.w, e)) },
		"SetTransform": func(s *sim, e arche.Entity) { must(t, ecs.SetTransform(s.w, e, components.V(5, 0.5), 0)) },
		"write":        func(s *sim, e arche.Entity) { s.xf.Get(e).P.X = 5 },
	}
	for name, remove := range ways {
		s := newSim(t, nil)
		s.add(ground())
		var es []arche.Entity
		for i := 0; i < 3; i++ {
			d := dynBox(0, 0.5+float64(i), 0.5, 0.5)
			d.StartAsleep = true
			es = append(es, s.add(d))
		}
		s.run(10)
		if !allAsleep(s, es) {
			t.Fatalf("%s: the stack created asleep woke by itself", name)
		}
		remove(s, es[0])
		s.run(120)
		if y := s.pos(es[1]).Y; math.Abs(y-0.5) > 0.01 {
			t.Errorf("%s: the box that stood on the bottom one is at y %.3f m after 2 s (asleep %v), want 0.5",
				name, y, s.asleep(es[1]))
		}
	}
}

// TestPhysicsBrokenSleeperMendedWakes: a game gives a sleeping box a NaN
// position, which the engine reports, and then mends it by writing a valid
// position 4.5 m up. The box must wake and fall to the ground: it stayed
// asleep in the air.
func TestPhysicsBrokenSleeperMendedWakes(t *testing.T) {
	s := newSim(t, nil)
	s.add(ground())
	es := boxStack(s, 0, 1)
	runUntilAsleep(t, s, es, 180)
	s.xf.Get(es[0]).P.X = math.NaN()
	s.run(1)
	if r := s.report(); len(r) != 1 || r[0].Entity != es[0] {
		t.Fatalf("report %v, want the NaN position", r)
	}
	s.xf.Get(es[0]).P = components.V(8, 5)
	s.run(120)
	if p := s.pos(es[0]); math.Abs(p.Y-0.5) > 0.01 || len(s.report()) != 0 {
		t.Errorf("the mended box is at %v after 2 s (asleep %v, report %v), want on the ground at x 8", p, s.asleep(es[0]), s.report())
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
