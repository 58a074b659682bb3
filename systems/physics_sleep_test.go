package systems_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// boxStack builds a stack of n 1 m boxes on the ground at x.
func boxStack(s *sim, x float64, n int) []arche.Entity {
	var es []arche.Entity
	for i := 0; i < n; i++ {
		es = append(es, s.add(dynBox(x, 0.5+float64(i), 0.5, 0.5)))
	}
	return es
}

// sleepingStack builds a stack of n 1 m boxes on the ground at x and runs
// until all are asleep (failing after 3 s).
func sleepingStack(t *testing.T, s *sim, x float64, n int) []arche.Entity {
	t.Helper()
	es := boxStack(s, x, n)
	runUntilAsleep(t, s, es, 180)
	return es
}

// runUntilAsleep runs s until every body of es is asleep, and fails the test
// if they are not after the given number of ticks.
func runUntilAsleep(t *testing.T, s *sim, es []arche.Entity, ticks int) {
	t.Helper()
	for i := 0; i < ticks && !allAsleep(s, es); i++ {
		s.run(1)
	}
	if !allAsleep(s, es) {
		t.Fatalf("%d bodies are not all asleep after %d ticks", len(es), ticks)
	}
}

func allAsleep(s *sim, es []arche.Entity) bool {
	for _, e := range es {
		if !s.asleep(e) {
			return false
		}
	}
	return true
}

func noneAsleep(s *sim, es []arche.Entity) bool {
	for _, e := range es {
		if s.asleep(e) {
			return false
		}
	}
	return true
}

// TestPhysicsGravityChangeWakes: sleeping bodies wake on the first tick after
// ecs.SetGravity changes the gravity and move the new way. A box on the
// ground and a ball resting in a corner; gravity turned to (0, +10) (they fall
// up), to (-10, 0) (they slide left: nothing presses them on the ground any
// more, so there is no friction) and to (3, 8). After one tick each body's
// velocity is along the new gravity.
func TestPhysicsGravityChangeWakes(t *testing.T) {
	for _, g := range []components.Vec2{components.V(0, 10), components.V(-10, 0), components.V(3, 8)} {
		s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
		s.add(ground())
		box := s.add(dynBox(0, 0.5, 0.5, 0.5))
		ball := s.add(dynCircle(3, 0.25, 0.25))
		runUntilAsleep(t, s, []arche.Entity{box, ball}, 120)
		if err := ecs.SetGravity(s.w, g); err != nil {
			t.Fatal(err)
		}
		p0 := s.pos(box)
		s.run(1)
		if s.asleep(box) || s.asleep(ball) {
			t.Fatalf("g = %v: bodies still asleep one tick after the gravity changed (box %v, ball %v)", g, s.asleep(box), s.asleep(ball))
		}
		// With gravity pointing away from the ground they fly free at once:
		// v = 4 h g' = dt g' after one tick (1e-9 relative). Sideways, they
		// keep touching the ground for a while (the soft contact releases
		// its 0.1 mm resting overlap): the velocity is along g' within 5 %.
		for _, e := range []arche.Entity{box, ball} {
			want := g.Scale(s.cfg.Dt)
			tol := 1e-9
			if g.Y <= 0 {
				tol = 0.05
			}
			if d := s.v(e).Lin.Sub(want).Len(); d > tol*want.Len() {
				t.Errorf("g = %v: velocity after one tick %v, want %v within %g relative (flight along the new gravity)", g, s.v(e).Lin, want, tol)
			}
		}
		s.run(30)
		d := s.pos(box).Sub(p0)
		gn, _ := g.Normalize()
		if d.Dot(gn) < 0.5*0.5*g.Len()*0.25 {
			t.Errorf("g = %v: box moved %v in 0.5 s, want about g t^2/2 = %.3f along the gravity", g, d, 0.5*g.Len()*0.25)
		}
		t.Logf("g = %v: box moved %v in 31 ticks", g, d)
	}
}

// TestPhysicsGravityStrongerWakesAndHolds: gravity doubled: the sleeping
// stack wakes, keeps standing (top within 2 cm sideways), and falls asleep
// again.
func TestPhysicsGravityStrongerWakesAndHolds(t *testing.T) {
	s := newSim(t, nil)
	s.add(ground())
	stack := sleepingStack(t, s, 0, 5)
	x0 := s.pos(stack[4]).X
	if err := ecs.SetGravity(s.w, components.V(0, -20)); err != nil {
		t.Fatal(err)
	}
	s.run(1)
	if !noneAsleep(s, stack) {
		t.Fatalf("stack not woken by a gravity change")
	}
	s.run(180)
	if !allAsleep(s, stack) {
		t.Errorf("stack not asleep again 3 s after the gravity change")
	}
	if dx := math.Abs(s.pos(stack[4]).X - x0); dx > 0.02 {
		t.Errorf("top box moved %.4f m sideways under doubled gravity, want < 0.02", dx)
	}
}

// TestPhysicsTouchWakes drops a box from 3 m onto a sleeping stack of 4: the
// whole stack wakes (it is one island) in time, before the box has pushed
// into it: the top of the stack sinks under the impact no more than in the
// same scene with sleep disabled (where it is awake all along), within 2 mm,
// and the dropped box ends up on top. A sleeping stack next to it that
// nothing touches stays asleep throughout.
func TestPhysicsTouchWakes(t *testing.T) {
	sink := func(sleep bool) (sank float64, wokeAt int, onTop bool) {
		s := newSim(t, func(c *systems.Config) { c.Workers = 2; c.Sleep = sleep })
		s.add(ground())
		var stack, other []arche.Entity
		if sleep {
			stack = sleepingStack(t, s, 0, 4)
			other = sleepingStack(t, s, 5, 3)
			if !allAsleep(s, stack) {
				t.Fatalf("first stack woke while the second settled")
			}
		} else {
			for i := 0; i < 4; i++ {
				stack = append(stack, s.add(dynBox(0, 0.5+float64(i), 0.5, 0.5)))
			}
			s.run(120)
		}
		topY := s.pos(stack[3]).Y
		drop := s.add(dynBox(0.2, topY+3, 0.5, 0.5))
		wokeAt, minTop := -1, topY
		for i := 1; i <= 180; i++ {
			s.run(1)
			if wokeAt < 0 && noneAsleep(s, stack) {
				wokeAt = i
			}
			minTop = math.Min(minTop, s.pos(stack[3]).Y)
			if !allAsleep(s, other) {
				t.Fatalf("tick %d: the untouched stack woke", i)
			}
		}
		return topY - minTop, wokeAt, math.Abs(s.pos(drop).Y-(topY+1)) < 0.05
	}
	sank, wokeAt, onTop := sink(true)
	ref, _, _ := sink(false)
	t.Logf("stack woke at tick %d (the box falls 2 m in ~38 ticks); top sank %.4f m (%.4f m when awake all along)", wokeAt, sank, ref)
	if wokeAt < 0 {
		t.Fatalf("the stack never woke although a box fell on it")
	}
	if sank > ref+0.002 {
		t.Errorf("the sleeping stack's top sank %.4f m under the impact, %.4f m when awake: woken too late (tolerance 2 mm)", sank, ref)
	}
	if !onTop {
		t.Errorf("the dropped box did not end on top of the stack")
	}
}

// TestPhysicsWakeWakesIsland: ecs.Wake on one member of a sleeping stack wakes
// the whole island on the next tick (and only that island); a member woken
// alone is not left simulating while the rest sleeps.
func TestPhysicsWakeWakesIsland(t *testing.T) {
	for _, member := range []int{0, 2, 4} {
		s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
		s.add(ground())
		stack := sleepingStack(t, s, 0, 5)
		other := sleepingStack(t, s, 5, 2)
		if err := ecs.Wake(s.w, stack[member]); err != nil {
			t.Fatal(err)
		}
		if s.asleep(stack[member]) {
			t.Errorf("Wake: body still tagged asleep")
		}
		s.run(1)
		for i, e := range stack {
			if s.asleep(e) {
				t.Errorf("Wake(member %d): box %d still asleep after the next tick", member, i)
			}
		}
		if !allAsleep(s, other) {
			t.Errorf("Wake(member %d) woke another island", member)
		}
		if s.profile().Bodies != 5 {
			t.Errorf("Wake(member %d): %d bodies simulated, want the 5 of the island", member, s.profile().Bodies)
		}
		// And they sleep again.
		s.run(60)
		if !allAsleep(s, stack) {
			t.Errorf("Wake(member %d): the stack did not fall asleep again", member)
		}
	}
}

// TestPhysicsSetVelocityWakesIsland: a command that gives a sleeping body a
// velocity (SetVelocity, ApplyLinearImpulse) wakes it, and the boxes resting
// on it too.
func TestPhysicsSetVelocityWakesIsland(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
	s.add(ground())
	stack := sleepingStack(t, s, 0, 3)
	if err := ecs.ApplyLinearImpulse(s.w, stack[0], components.V(3, 0), s.pos(stack[0])); err != nil {
		t.Fatal(err)
	}
	s.run(1)
	if !noneAsleep(s, stack) {
		t.Errorf("impulse on the bottom box did not wake the stack")
	}
	if vx := s.v(stack[0]).Lin.X; vx <= 0 {
		t.Errorf("bottom box vx %.4f after an impulse of 3 N s to the right", vx)
	}
}

// TestPhysicsKinematicWakes: a kinematic body moving into a sleeping box
// wakes it and pushes it.
func TestPhysicsKinematicWakes(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
	s.add(ground())
	box := sleepingStack(t, s, 0, 1)[0]
	d := ecs.DefaultBodyDef()
	d.Type = components.Kinematic
	d.Shape = components.Box(0.5, 0.5)
	d.Position = components.V(-2, 0.6)
	d.LinearVelocity = components.V(1, 0)
	s.add(d)
	x0 := s.pos(box).X
	s.run(120)
	if s.asleep(box) {
		t.Errorf("the kinematic pusher did not wake the box")
	}
	if dx := s.pos(box).X - x0; dx < 0.5 {
		t.Errorf("box moved %.3f m; the pusher (1 m/s, 1 m gap) should have pushed it about 1 m", dx)
	}
}

// TestPhysicsSetTransformWakes: ecs.SetTransform teleports a sleeping box
// into the air; it wakes and falls (v = -g t after 0.5 s within 1e-9, as
// nothing touches it).
func TestPhysicsSetTransformWakes(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
	s.add(ground())
	box := sleepingStack(t, s, 0, 1)[0]
	if err := ecs.SetTransform(s.w, box, components.V(3, 10), 0.5); err != nil {
		t.Fatal(err)
	}
	s.run(30)
	want := -120 * (s.cfg.Dt / 4) * 10
	if v := s.v(box).Lin.Y; s.asleep(box) || math.Abs(v-want) > 1e-9*math.Abs(want) {
		t.Errorf("teleported box: asleep %v, vy %.6f, want awake and %.6f", s.asleep(box), v, want)
	}
}

// TestPhysicsTransformWriteWakes: a game that moves a sleeping body by
// writing its Transform component, as the README allows, wakes it and its
// island on the next tick, as SetTransform would. One stack's top box is
// lifted 5 m, the other's is only turned in place (its box stays the same),
// and a third stack, untouched, sleeps on.
func TestPhysicsTransformWriteWakes(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
	s.add(ground())
	lifted := sleepingStack(t, s, -4, 2)
	turned := sleepingStack(t, s, 0, 2)
	still := sleepingStack(t, s, 4, 2)
	*s.xf.Get(lifted[1]) = components.NewTransform(-4, 6.5, 0)
	*s.xf.Get(turned[1]) = components.NewTransform(0, 1.5, 0.5*math.Pi)
	s.run(1)
	if !noneAsleep(s, lifted) || !noneAsleep(s, turned) {
		t.Fatalf("after writing the Transforms: lifted stack asleep %v %v, turned stack asleep %v %v",
			s.asleep(lifted[0]), s.asleep(lifted[1]), s.asleep(turned[0]), s.asleep(turned[1]))
	}
	if !allAsleep(s, still) {
		t.Error("the untouched stack woke")
	}
	if vy := s.v(lifted[1]).Lin.Y; vy >= 0 {
		t.Errorf("lifted box: vy %.4f after a tick, want falling", vy)
	}
	s.run(120)
	if y := s.pos(lifted[1]).Y; math.Abs(y-1.5) > 0.02 {
		t.Errorf("lifted box ended at y = %.3f, want back on its stack at 1.5", y)
	}
}

// TestPhysicsBrokenIslandsWakeInOrder: removing the bottom box of eight
// sleeping stacks at once wakes the two boxes above in each, on the next
// tick, and in the same order on every run.
//   - The wake once went through the first member of each broken island,
//     which here is the removed box itself: the stacks slept on in the air.
//     TestPhysicsRemoveBody missed it, since a game component put its bottom
//     box last in storage.
//   - The broken islands were once found by ranging over a Go map, whose
//     order changes from run to run. The order of the wakes is the order of
//     the woken bodies in arche's storage, so of the solver's rows and of
//     every query a game runs: the same removals gave different worlds.
func TestPhysicsBrokenIslandsWakeInOrder(t *testing.T) {
	run := func() []arche.Entity {
		s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
		s.add(ground())
		var bottoms []arche.Entity
		for k := 0; k < 8; k++ {
			bottoms = append(bottoms, sleepingStack(t, s, -16+4*float64(k), 3)[0])
		}
		for _, e := range bottoms {
			s.w.RemoveEntity(e)
		}
		s.run(1)
		var order []arche.Entity
		q := generic.NewFilter1[components.Transform]().Query(s.w)
		for q.Next() {
			if e := q.Entity(); !s.asleep(e) {
				order = append(order, e)
			}
		}
		if len(order) != 1+8*2 {
			t.Fatalf("%d bodies awake after the removals, want the ground and 16 boxes", len(order))
		}
		return order
	}
	first := run()
	for i := 0; i < 6; i++ {
		if got := run(); !slices.Equal(got, first) {
			t.Fatalf("run %d woke the stacks in the order %v, run 0 in %v", i+1, got, first)
		}
	}
}

// TestPhysicsSleeperWokenBeforeReached: a ball at 30 m/s (0.5 m per tick)
// flies at a sleeping box, no gravity. Pairs with sleeping bodies only wake
// them, so the box must be awake before the ball can reach it: the ball's
// box reaches twice its step towards the frozen set. The ball never sinks
// into the box by more than 1 cm, and the box is pushed along.
func TestPhysicsSleeperWokenBeforeReached(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Workers = 1; c.Gravity = components.Vec2{} })
	box := s.add(dynBox(0, 0, 0.5, 0.5))
	s.run(40)
	if !s.asleep(box) {
		t.Fatal("the box is not asleep after 40 ticks at rest")
	}
	d := dynCircle(-3, 0, 0.25)
	d.LinearVelocity = components.V(30, 0)
	ball := s.add(d)
	minGap := math.Inf(1)
	for i := 0; i < 30; i++ {
		s.run(1)
		gap := (s.pos(box).X - 0.5) - (s.pos(ball).X + 0.25)
		minGap = math.Min(minGap, gap)
	}
	if minGap < -0.01 {
		t.Errorf("the ball sank %.3f m into the box: it was still asleep when the ball arrived", -minGap)
	}
	if v := s.v(box).Lin.X; !(v > 1) {
		t.Errorf("box velocity %.3f m/s after the hit, want it pushed along (> 1 m/s)", v)
	}
}

// TestPhysicsSleepCycleAllocatesNothing: once a scene has slept and woken
// once, waking an island (by an impulse, or by turning the gravity) and
// letting it fall asleep again allocates nothing: the sleeping sets' member
// lists are reused.
func TestPhysicsSleepCycleAllocatesNothing(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
	s.add(ground())
	stack := sleepingStack(t, s, 0, 3)
	other := sleepingStack(t, s, 5, 2)
	g := components.V(0, -10)
	cycle := func() {
		// Wake the first stack by an impulse, then everything by the
		// gravity (turned by a hair and back, so the stacks stay put).
		if err := ecs.ApplyLinearImpulse(s.w, stack[0], components.V(0.5, 0), s.pos(stack[0])); err != nil {
			t.Fatal(err)
		}
		s.run(1)
		g.X = -g.X + 1e-3
		if err := ecs.SetGravity(s.w, g); err != nil {
			t.Fatal(err)
		}
		for i := 0; i < 240 && !(allAsleep(s, stack) && allAsleep(s, other)); i++ {
			s.run(1)
		}
	}
	cycle()
	cycle()
	if !allAsleep(s, stack) || !allAsleep(s, other) {
		t.Fatalf("stacks did not fall asleep again")
	}
	if n := testing.AllocsPerRun(20, cycle); n != 0 {
		t.Errorf("a wake and sleep cycle allocated %v times", n)
	}
	if !allAsleep(s, stack) || !allAsleep(s, other) {
		t.Errorf("stacks did not fall asleep again")
	}
}

// TestPhysicsSleepersStayAsleep rests 100 discs at random angles and two
// bodies at an angle whose rotation Normalize moves by an ulp on every call,
// and counts how often each falls asleep: once, for good. The gather used
// to renormalise every rotation that was not exactly of length 1, sleeping
// ones included, and a sleeping body whose rotation changed looks moved by
// the game and wakes: one disc woke 38 times in 20 s, and 9 of 100.
func TestPhysicsSleepersStayAsleep(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
	s.add(staticBox(0, -0.5, 200, 0.5, 0))
	rng := rand.New(rand.NewPCG(5, 1))
	unsettled := math.Atan2(0.00574393059011394, -0.9999835034946206)
	var es []arche.Entity
	for i := 0; i < 102; i++ {
		x := -150 + 3*float64(i)
		d := dynCircle(x, 0.5, 0.5)
		d.Angle = 2*math.Pi*rng.Float64() - math.Pi
		switch i {
		case 100:
			d.Angle = unsettled
		case 101:
			d = dynBox(x, 0.5, 0.5, 0.5)
			d.Angle = unsettled
		}
		es = append(es, s.add(d))
	}
	naps := make([]int, len(es))
	was := make([]bool, len(es))
	for k := 0; k < 1200; k++ {
		s.run(1)
		for i, e := range es {
			if a := s.asleep(e); a && !was[i] {
				naps[i]++
			}
			was[i] = s.asleep(e)
		}
	}
	for i, n := range naps {
		if n != 1 || !was[i] {
			t.Errorf("body %d fell asleep %d times in 20 s (asleep at the end: %v), want once, for good", i, n, was[i])
		}
	}
}
