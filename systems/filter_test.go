package systems_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// setFilter writes body e's filter, as a game does between ticks.
func (s *sim) setFilter(e arche.Entity, f components.Filter) {
	m := generic.NewMap[components.Material](s.w)
	m.Get(e).Filter = f
}

// TestFilterCategories: on the default ground, box A (category 2) rests;
// box B (category 4, ignoring 2) dropped onto it passes through it and
// rests on the ground at A's height, overlapping it; box C (default)
// dropped onto A lands on it. On 1 and 2 workers.
func TestFilterCategories(t *testing.T) {
	for _, workers := range []int{1, 2} {
		s := newSim(t, func(c *systems.Config) { c.Workers = workers })
		s.add(ground())
		da := dynBox(0, 0.5, 0.5, 0.5)
		da.Filter = components.Filter{Category: 2}
		a := s.add(da)
		db := dynBox(0.1, 3, 0.5, 0.5)
		db.Filter = components.Filter{Category: 4, Ignore: 2}
		b := s.add(db)
		c := s.add(dynBox(-0.1, 6, 0.5, 0.5))
		s.run(240)
		if y := s.pos(a).Y; math.Abs(y-0.5) > 0.01 {
			t.Errorf("workers %d: A at y = %.4f, want 0.5 on the ground", workers, y)
		}
		if y := s.pos(b).Y; math.Abs(y-0.5) > 0.01 {
			t.Errorf("workers %d: B at y = %.4f, want 0.5: through A, onto the ground", workers, y)
		}
		if y := s.pos(c).Y; math.Abs(y-1.5) > 0.02 {
			t.Errorf("workers %d: C at y = %.4f, want 1.5: on A", workers, y)
		}
	}
}

// TestFilterGroups: two boxes of one negative group pass through each
// other (the upper one ends on the ground, inside the lower one), while a
// default box still lands on them; two boxes of one positive group that
// ignore every category collide with each other and with nothing else: the
// faster one, thrown down at the other, pushes it, never goes into it, and
// both fall through the ground.
func TestFilterGroups(t *testing.T) {
	s := newSim(t, nil)
	s.add(ground())
	d1 := dynBox(0, 0.5, 0.5, 0.5)
	d1.Filter.Group = -7
	n1 := s.add(d1)
	d2 := dynBox(0, 3, 0.5, 0.5)
	d2.Filter.Group = -7
	n2 := s.add(d2)
	other := s.add(dynBox(0, 6, 0.5, 0.5))

	all := components.Filter{Group: 5, Ignore: ^uint64(0)}
	p1d := dynBox(10, 0.5, 0.5, 0.5)
	p1d.Filter = all
	p1 := s.add(p1d)
	p2d := dynBox(10, 3, 0.5, 0.5)
	p2d.Filter, p2d.LinearVelocity = all, components.V(0, -10)
	p2 := s.add(p2d)

	minGap := math.Inf(1)
	for i := 0; i < 240; i++ {
		s.run(1)
		minGap = min(minGap, s.pos(p2).Y-s.pos(p1).Y)
	}
	if y := s.pos(n2).Y; math.Abs(y-0.5) > 0.01 {
		t.Errorf("negative group: the upper box at y = %.4f, want 0.5 (through the lower one)", y)
	}
	if y := s.pos(other).Y; math.Abs(y-1.5) > 0.02 {
		t.Errorf("a default box at y = %.4f, want 1.5: on the group's boxes", y)
	}
	if y := s.pos(n1).Y; math.Abs(y-0.5) > 0.01 {
		t.Errorf("negative group: the lower box at y = %.4f, want 0.5", y)
	}
	if minGap < 1-0.02 {
		t.Errorf("positive group: the boxes came to %.4f m between centres, want about 1 (they collide)", minGap)
	}
	if v := s.v(p1).Lin.Y; !(v < -0.5*10*4-1) {
		t.Errorf("positive group: the lower box falls at %.2f m/s after 4 s: the upper one did not push it", v)
	}
	if s.pos(p1).Y > -10 || s.pos(p2).Y > -10 {
		t.Errorf("positive group: boxes at %.2f and %.2f, want both through the ground", s.pos(p1).Y, s.pos(p2).Y)
	}
}

// TestFilterChangeWakesSleepers: a stack of three boxes asleep on a static
// floor; the game sets the floor to ignore the default category, and the
// whole stack wakes in the next tick and falls through it. A lone box
// asleep on the ground beside it, whose own filter is then set to ignore
// the ground, wakes and falls too, while a second stack, untouched, stays
// asleep throughout.
func TestFilterChangeWakesSleepers(t *testing.T) {
	s := newSim(t, nil)
	floor := s.add(staticBox(0, -0.5, 2, 0.5, 0))
	s.add(staticBox(10, -0.5, 6, 0.5, 0))
	stack := sleepingStack(t, s, 0, 3)
	lone := sleepingStack(t, s, 8, 1)[0]
	quiet := sleepingStack(t, s, 13, 2)

	s.setFilter(floor, components.Filter{Ignore: components.DefaultCategory})
	s.run(1)
	if !noneAsleep(s, stack) {
		t.Fatal("the stack is still asleep a tick after its floor stopped holding it")
	}
	s.setFilter(lone, components.Filter{Category: 2, Ignore: components.DefaultCategory})
	s.run(1)
	if s.asleep(lone) {
		t.Fatal("a sleeper whose filter changed is still asleep a tick later")
	}
	for i := 0; i < 60; i++ {
		s.run(1)
		if !allAsleep(s, quiet) {
			t.Fatalf("tick %d: the untouched stack woke", i)
		}
	}
	for _, e := range append(stack, lone) {
		if y := s.pos(e).Y; y > -2 {
			t.Errorf("body at y = %.3f after 1 s, want it fallen through the floor", y)
		}
	}
}

// TestFilterIgnoredBodyWakesNothing: a body that ignores the default
// category falls through a sleeping stack and the ground, and the stack
// stays asleep at every tick; so does one struck towards the stack by
// another such body (sped up within the tick); a default body dropped the
// same way wakes it.
func TestFilterIgnoredBodyWakesNothing(t *testing.T) {
	s := newSim(t, nil)
	s.add(ground())
	stack := sleepingStack(t, s, 0, 3)
	d := dynBox(0.2, 6, 0.3, 0.3)
	d.Filter.Ignore = components.DefaultCategory
	d.LinearVelocity = components.V(0, -20)
	ghost := s.add(d)
	for i := 0; i < 60; i++ {
		s.run(1)
		if !allAsleep(s, stack) {
			t.Fatalf("tick %d: the stack woke for a body that ignores it (at y = %.2f)", i, s.pos(ghost).Y)
		}
	}
	if y := s.pos(ghost).Y; y > -10 {
		t.Fatalf("the ghost is at y = %.2f, want it through the stack and the ground", y)
	}
	// A ghost struck towards the stack within a tick: the wake ahead of
	// sped-up bodies must not wake what it ignores either.
	ghosts := components.Filter{Category: 2, Ignore: components.DefaultCategory}
	dg := dynBox(-1.2, 1.5, 0.3, 0.3)
	dg.Filter, dg.GravityScale = ghosts, 0
	struck := s.add(dg)
	ds := dynBox(-3, 1.5, 0.3, 0.3)
	ds.Filter, ds.GravityScale, ds.LinearVelocity = ghosts, 0, components.V(30, 0)
	s.add(ds)
	for i := 0; i < 30; i++ {
		s.run(1)
		if !allAsleep(s, stack) {
			t.Fatalf("tick %d: the stack woke for a struck body that ignores it (at x = %.2f, %.2f m/s)", i, s.pos(struck).X, s.v(struck).Lin.X)
		}
	}
	if x := s.pos(struck).X; x < 5 {
		t.Fatalf("the struck ghost is at x = %.2f, want it through the stack", x)
	}
	d.Filter = components.Filter{}
	s.add(d)
	s.run(30)
	if allAsleep(s, stack) {
		t.Error("a default body dropped on the stack did not wake it")
	}
}

// TestFilterContinuousPassesIgnoredWall: a box at 300 m/s towards a thin
// static wall passes through it when the wall ignores its category, and is
// stopped in front of it when not (continuous collision); the same for a
// wall of one negative group with the box.
func TestFilterContinuousPassesIgnoredWall(t *testing.T) {
	for _, c := range []struct {
		name       string
		wall, body components.Filter
		through    bool
	}{
		{"default", components.Filter{}, components.Filter{}, false},
		{"the wall ignores the box", components.Filter{Ignore: 4}, components.Filter{Category: 4}, true},
		{"the box ignores the wall", components.Filter{Category: 8}, components.Filter{Ignore: 8}, true},
		{"one negative group", components.Filter{Group: -2}, components.Filter{Group: -2}, true},
		{"another category", components.Filter{Ignore: 4}, components.Filter{Category: 16}, false},
	} {
		s := newSim(t, func(cfg *systems.Config) { cfg.Gravity = components.Vec2{} })
		w := staticBox(0, 0, 0.05, 5, 0)
		w.Filter = c.wall
		s.add(w)
		d := dynBox(-3, 0, 0.1, 0.1)
		d.Filter, d.LinearVelocity = c.body, components.V(300, 0)
		b := s.add(d)
		for i := 1; i <= 30; i++ {
			s.run(1)
			// Through: in free flight at every tick, not held up a tick
			// at the wall by the sweep.
			if want := -3 + 300*s.cfg.Dt*float64(i); c.through && math.Abs(s.pos(b).X-want) > 1e-9 {
				t.Fatalf("%s: tick %d: box at x = %.4f, want %.4f: in free flight through the wall", c.name, i, s.pos(b).X, want)
			}
		}
		x := s.pos(b).X
		if !c.through && x > -0.05 {
			t.Errorf("%s: box at x = %.2f, past the wall's face", c.name, x)
		}
	}
}

// TestFilterChangeEndsContact: a box resting on the ground has one begin
// event; when the game makes it ignore the ground, the next tick ends the
// contact, and it falls without a new begin.
func TestFilterChangeEndsContact(t *testing.T) {
	s := newSim(t, nil)
	g := s.add(ground())
	b := s.add(dynBox(0, 0.6, 0.5, 0.5))
	begins := 0
	for i := 0; i < 30; i++ {
		s.run(1)
		n, _, _, _ := s.tickEvents(g, b)
		begins += n
	}
	if begins != 1 {
		t.Fatalf("%d begin events while landing, want 1", begins)
	}
	s.setFilter(b, components.Filter{Ignore: components.DefaultCategory})
	s.run(1)
	if n, e, _, _ := s.tickEvents(g, b); n != 0 || e != 1 {
		t.Fatalf("the tick after the filter change: %d begin, %d end events, want 0 and 1", n, e)
	}
	for i := 0; i < 30; i++ {
		s.run(1)
		if n, e, _, _ := s.tickEvents(g, b); n != 0 || e != 0 {
			t.Fatalf("tick %d of the fall: %d begin, %d end events", i, n, e)
		}
	}
}

// filteredPileHash runs a pile of 300 boxes and circles in a container, with
// random filters (three categories, ignores, groups of either sign), on the
// given workers, and hashes the final state.
func filteredPileHash(t *testing.T, workers int) string {
	s := newSim(t, func(c *systems.Config) { c.Workers = workers; c.LargeIslandContacts = 32 })
	containerScene(s, 10)
	r := rand.New(rand.NewPCG(5, 6))
	defs := pileDefs(r, 300, 20, 0.6, 0.2)
	for i := range defs {
		switch r.IntN(4) {
		case 0:
			defs[i].Filter = components.Filter{Category: 2, Ignore: 4}
		case 1:
			defs[i].Filter = components.Filter{Category: 4, Ignore: 2}
		case 2:
			defs[i].Filter.Group = int32(r.IntN(5) - 2)
		}
	}
	es, err := ecs.NewBodies(s.w, defs, nil)
	if err != nil {
		t.Fatal(err)
	}
	s.run(200)
	var h []byte
	for _, e := range es {
		xf, v := s.transform(e), s.v(e)
		h = fmt.Appendf(h, "%x%x%x%x%x%x%x", math.Float64bits(xf.P.X), math.Float64bits(xf.P.Y),
			math.Float64bits(xf.R.C), math.Float64bits(xf.R.S), math.Float64bits(v.Lin.X), math.Float64bits(v.Lin.Y), math.Float64bits(v.Ang))
	}
	return fmt.Sprintf("%x", h)
}

// TestFilterDeterministicAcrossWorkers: a pile with random filters gives
// the same bits on 1, 2 and 3 workers.
func TestFilterDeterministicAcrossWorkers(t *testing.T) {
	want := filteredPileHash(t, 1)
	for _, w := range []int{2, 3} {
		if got := filteredPileHash(t, w); got != want {
			t.Errorf("workers %d: the state differs from 1 worker's", w)
		}
	}
}

// TestFilterJoinedBodies: a box dropped onto another, both tied by a slack
// rope (a distance joint free between its limits) with CollideConnected
// set, lands on it; in one negative group it passes through it to the
// ground: a joint that lets its bodies collide does not override their
// filters.
func TestFilterJoinedBodies(t *testing.T) {
	for _, group := range []int32{0, -4} {
		s := newSim(t, nil)
		s.add(ground())
		da, db := dynBox(0, 0.5, 0.5, 0.5), dynBox(0, 3, 0.5, 0.5)
		da.Filter.Group, db.Filter.Group = group, group
		a, b := s.add(da), s.add(db)
		j, err := ecs.DistanceJoint(s.w, a, b, components.V(0, 0.5), components.V(0, 2.5))
		if err != nil {
			t.Fatal(err)
		}
		j.EnableSpring, j.EnableLimit, j.Lower, j.Upper = true, true, 0, 5
		j.CollideConnected = true
		if _, err := ecs.NewJoint(s.w, j); err != nil {
			t.Fatal(err)
		}
		s.run(180)
		want := 1.5
		if group < 0 {
			want = 0.5
		}
		if y := s.pos(b).Y; math.Abs(y-want) > 0.02 {
			t.Errorf("group %d: the upper box at y = %.4f, want %.1f", group, y, want)
		}
	}
}

// TestFilterIgnoredChangesWakeNothing: a body that ignores a sleeping
// stack wakes none of it when the game moves it through the stack (a
// static body, written tick by tick), creates it inside the stack, sets it
// moving from rest inside it (a kinematic body), or moves out or removes
// a sleeping one created inside it (a review's cases); the same static and
// kinematic changes of a default body wake the stack.
func TestFilterIgnoredChangesWakeNothing(t *testing.T) {
	ghost := components.Filter{Category: 2, Ignore: ^uint64(0)}
	for _, filter := range []components.Filter{ghost, {}} {
		wakes := filter == (components.Filter{})
		for _, c := range []string{"static moved through", "static created inside", "kinematic set moving",
			"sleeper moved out", "sleeper removed"} {
			if wakes && (c == "sleeper moved out" || c == "sleeper removed") {
				continue // a default box created asleep inside the stack wakes it at once
			}
			s := newSim(t, nil)
			s.add(ground())
			stack := sleepingStack(t, s, 0, 3)
			xf := generic.NewMap[components.Transform](s.w)
			woke := false
			tick := func() {
				s.run(1)
				woke = woke || !allAsleep(s, stack)
			}
			switch c {
			case "static moved through":
				d := staticBox(-3, 1.5, 0.3, 0.3, 0)
				d.Filter = filter
				e := s.add(d)
				for i := 0; i < 60; i++ {
					xf.Get(e).P = components.V(-3+0.1*float64(i), 1.5)
					tick()
				}
			case "static created inside":
				d := staticBox(0, 1.5, 0.2, 0.2, 0)
				d.Filter = filter
				s.add(d)
				tick()
			case "kinematic set moving":
				d := staticBox(0, 1.5, 0.2, 0.2, 0)
				d.Type, d.Filter = components.Kinematic, filter
				e := s.add(d)
				s.run(1)
				woke = !allAsleep(s, stack)
				if err := ecs.SetVelocity(s.w, e, components.V(1, 0), 0); err != nil {
					t.Fatal(err)
				}
				tick()
			case "sleeper moved out", "sleeper removed":
				d := dynBox(0.2, 1.5, 0.2, 0.2)
				d.StartAsleep, d.GravityScale, d.Filter = true, 0, filter
				e := s.add(d)
				tick()
				if c == "sleeper moved out" {
					xf.Get(e).P = components.V(0.2, 2.8)
				} else if err := ecs.RemoveBody(s.w, e); err != nil {
					t.Fatal(err)
				}
				tick()
			}
			if woke != wakes {
				t.Errorf("filter %+v, %s: the stack woke: %v, want %v", filter, c, woke, wakes)
			}
		}
	}
}
