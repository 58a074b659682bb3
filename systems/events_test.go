package systems_test

import (
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

func (s *sim) events() *ecs.ContactEvents {
	r := generic.NewResource[ecs.ContactEvents](s.w)
	return r.Get()
}

// pairOf reports whether the event pair (a, b) is {x, y} in either order.
func pairOf(a, b, x, y arche.Entity) bool { return a == x && b == y || a == y && b == x }

// tickEvents counts the begin, end and hit events of the pair {x, y} in the
// last tick, and returns the last hit of it.
func (s *sim) tickEvents(x, y arche.Entity) (begin, end, hit int, last ecs.ContactHit) {
	ev := s.events()
	for _, b := range ev.Begin {
		if pairOf(b.A, b.B, x, y) {
			begin++
		}
	}
	for _, e := range ev.End {
		if pairOf(e.A, e.B, x, y) {
			end++
		}
	}
	for _, h := range ev.Hit {
		if pairOf(h.A, h.B, x, y) {
			hit, last = hit+1, h
		}
	}
	return
}

// TestContactEventsOfABounce: a ball with e = 0.5 dropped from 2 m begins
// touching the ground once per landing, hits it at the speed of its fall
// (sqrt(2 g h) for the first landing, to 1 %) at a point below it, with
// the normal from A to
// B, and ends the contact once per rebound; the landings alternate with
// the rebounds, and no event names a pair twice in a tick.
func TestContactEventsOfABounce(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Sleep = false })
	g := s.add(ground())
	d := dynCircle(0, 2.25, 0.25)
	d.Restitution = 0.5
	ball := s.add(d)

	var begins, ends, hits []int
	var first ecs.ContactHit
	touching := false
	for step := 1; step <= 240; step++ {
		s.run(1)
		b, e, h, last := s.tickEvents(ball, g)
		if b > 1 || e > 1 || h > 1 {
			t.Fatalf("step %d: %d begins, %d ends, %d hits of one pair", step, b, e, h)
		}
		if b == 1 {
			if touching {
				t.Fatalf("step %d: began while touching", step)
			}
			touching = true
			begins = append(begins, step)
			bg := s.events().Begin[0]
			if bg.Count != 1 {
				t.Errorf("step %d: a circle on a box began with %d points", step, bg.Count)
			}
			// The normal points from A to B.
			if d := s.pos(bg.B).Sub(s.pos(bg.A)); d.Dot(bg.Normal) <= 0 {
				t.Errorf("step %d: normal %v points from B to A (A %v, B %v)", step, bg.Normal, s.pos(bg.A), s.pos(bg.B))
			}
		}
		if h == 1 {
			if !touching {
				t.Fatalf("step %d: a hit outside a contact", step)
			}
			if len(hits) == 0 {
				first = last
			}
			hits = append(hits, step)
		}
		if e == 1 {
			if !touching {
				t.Fatalf("step %d: ended while not touching", step)
			}
			touching = false
			ends = append(ends, step)
		}
	}
	if len(begins) < 3 || len(ends) < 2 {
		t.Fatalf("landings at %v, rebounds at %v: want at least 3 and 2", begins, ends)
	}
	if len(hits) < 2 {
		t.Fatalf("hits at %v: want one per landing fast enough", hits)
	}
	want := math.Sqrt(2 * 10 * 2.0)
	if relErr(first.Speed, want, want) > 0.01 {
		t.Errorf("first hit at %.4f m/s, want sqrt(2 g h) = %.4f", first.Speed, want)
	}
	// The manifold point of the start of the tick, midway across the gap
	// the ball closes within it: at most half a tick of fall (5.3 cm) above
	// the ground.
	if y := first.Point.Y; y < 0 || y > 0.5*want/60 || math.Abs(first.Point.X) > 1e-9 {
		t.Errorf("first hit at %v, want on the axis, within half a tick's fall above the ground", first.Point)
	}
	if first.Normal.Dot(s.pos(first.B).Sub(s.pos(first.A))) <= 0 {
		t.Errorf("hit normal %v points from B to A", first.Normal)
	}
}

// TestContactEventsHitSpeed: a box set down from 1 cm (0.45 m/s) begins
// touching without a hit at the default 1 m/s, hits at HitSpeed 0.1, and
// never hits at +Inf.
func TestContactEventsHitSpeed(t *testing.T) {
	for _, c := range []struct {
		speed float64
		hits  bool
	}{{1, false}, {0.1, true}, {math.Inf(1), false}} {
		s := newSim(t, func(cfg *systems.Config) { cfg.HitSpeed = c.speed })
		g := s.add(ground())
		box := s.add(dynBox(0, 0.51, 0.5, 0.5))
		begins, hits := 0, 0
		for range 30 {
			s.run(1)
			b, _, h, _ := s.tickEvents(box, g)
			begins += b
			hits += h
		}
		if begins != 1 {
			t.Errorf("HitSpeed %v: %d begins, want 1", c.speed, begins)
		}
		if (hits > 0) != c.hits {
			t.Errorf("HitSpeed %v: %d hits, want hits: %v", c.speed, hits, c.hits)
		}
	}
}

// TestContactEventsAcrossSleep: a box resting on the ground keeps its
// contact while it sleeps and when it wakes (no end, no second begin);
// removing it ends the contact, asleep or awake, and the event names it.
func TestContactEventsAcrossSleep(t *testing.T) {
	for _, asleep := range []bool{true, false} {
		s := newSim(t, func(c *systems.Config) { c.Sleep = asleep })
		g := s.add(ground())
		box := s.add(dynBox(0, 0.5, 0.5, 0.5))
		other := s.add(dynBox(5, 0.5, 0.5, 0.5))
		begins, ends := 0, 0
		count := func(n int) {
			for range n {
				s.run(1)
				b, e, _, _ := s.tickEvents(box, g)
				begins += b
				ends += e
			}
		}
		count(120)
		if asleep && !s.asleep(box) {
			t.Fatalf("the box did not fall asleep in 2 s")
		}
		if begins != 1 || ends != 0 {
			t.Fatalf("sleep %v: %d begins and %d ends while resting, want 1 and 0", asleep, begins, ends)
		}
		if asleep {
			if err := ecs.Wake(s.w, box); err != nil {
				t.Fatal(err)
			}
			count(5)
			if s.asleep(box) || begins != 1 || ends != 0 {
				t.Fatalf("woken: asleep %v, %d begins and %d ends, want awake, 1 and 0", s.asleep(box), begins, ends)
			}
			count(120)
			if !s.asleep(box) {
				t.Fatalf("the box did not fall asleep again")
			}
		}
		if err := ecs.RemoveBody(s.w, box); err != nil {
			t.Fatal(err)
		}
		count(1)
		if ends != 1 || begins != 1 {
			t.Fatalf("sleep %v: removing the box gave %d ends (and %d begins), want 1", asleep, ends, begins)
		}
		// The other box's contact goes on.
		if _, e, _, _ := s.tickEvents(other, g); e != 0 {
			t.Errorf("the other box's contact ended")
		}
	}
}

// TestContactEventsGravityTurn: turning the gravity wakes every sleeper
// and drops its impulses, but the contacts that still touch neither end
// nor begin again; once the bricks fall the other way, they end.
func TestContactEventsGravityTurn(t *testing.T) {
	s := newSim(t, nil)
	g := s.add(ground())
	var boxes []arche.Entity
	for i := range 3 {
		boxes = append(boxes, s.add(dynBox(float64(2*i), 0.5, 0.5, 0.5)))
	}
	s.run(120)
	for _, b := range boxes {
		if !s.asleep(b) {
			t.Fatalf("box %v awake after 2 s", b)
		}
	}
	if err := ecs.SetGravity(s.w, components.V(0, 10)); err != nil {
		t.Fatal(err)
	}
	s.run(1)
	ev := s.events()
	if len(ev.Begin) != 0 || len(ev.End) != 0 {
		t.Fatalf("the tick after the turn: %d begins, %d ends, want none (the boxes still touch)", len(ev.Begin), len(ev.End))
	}
	ended := 0
	for range 30 {
		s.run(1)
		for _, b := range boxes {
			_, e, _, _ := s.tickEvents(b, g)
			ended += e
		}
	}
	if ended != len(boxes) {
		t.Errorf("%d of %d boxes ended their contact with the ground as they fell up", ended, len(boxes))
	}
}

// TestContactEventsOfSleepersTakenAway: a box teleported away in the tick
// after it fell asleep ends its contact once (the previous tick's table
// and its woken island both hold it), and a sleeping box whose entity the
// game removes ends it too, though its island then has no member left to
// wake.
func TestContactEventsOfSleepersTakenAway(t *testing.T) {
	for _, how := range []string{"teleport", "remove entity"} {
		s := newSim(t, nil)
		g := s.add(ground())
		box := s.add(dynBox(0, 0.5, 0.5, 0.5))
		begins, ends := 0, 0
		tick := func() {
			s.run(1)
			b, e, _, _ := s.tickEvents(box, g)
			begins, ends = begins+b, ends+e
		}
		for i := 0; !s.asleep(box); i++ {
			if i == 200 {
				t.Fatalf("the box did not fall asleep")
			}
			tick()
		}
		switch how {
		case "teleport":
			if err := ecs.SetTransform(s.w, box, components.V(0, 5), 0); err != nil {
				t.Fatal(err)
			}
		default:
			s.w.RemoveEntity(box)
		}
		tick()
		tick()
		if begins != 1 || ends != 1 {
			t.Errorf("%s: %d begins and %d ends, want 1 and 1", how, begins, ends)
		}
	}
}

// TestContactEventsPlatformStartsMoving: a kinematic platform at rest is a
// frozen row, like the ground; set moving, it becomes a moving row, and
// the box on it, asleep, wakes. The contact goes on: no end, no second
// begin.
func TestContactEventsPlatformStartsMoving(t *testing.T) {
	for _, sleep := range []bool{false, true} {
		s := newSim(t, func(c *systems.Config) { c.Sleep = sleep })
		d := staticBox(0, -0.25, 3, 0.25, 0)
		d.Type = components.Kinematic
		platform := s.add(d)
		box := s.add(dynBox(0, 0.5, 0.5, 0.5))
		begins, ends := 0, 0
		tick := func(n int) {
			for range n {
				s.run(1)
				b, e, _, _ := s.tickEvents(box, platform)
				begins, ends = begins+b, ends+e
			}
		}
		tick(90)
		if err := ecs.SetVelocity(s.w, platform, components.V(0.5, 0), 0); err != nil {
			t.Fatal(err)
		}
		tick(30)
		if begins != 1 || ends != 0 {
			t.Errorf("sleep %v: %d begins and %d ends, want 1 and 0", sleep, begins, ends)
		}
	}
}

// TestContactEventsOfAMemberRemovedAsItsIslandSleeps: a box removed in the
// tick after its two-box island fell asleep ends its contacts, whichever
// box it is and however it is removed; the one left keeps its own.
func TestContactEventsOfAMemberRemovedAsItsIslandSleeps(t *testing.T) {
	for _, c := range []struct {
		name      string
		removeTop bool
		entity    bool
	}{{"top entity", true, true}, {"bottom entity", false, true}, {"top body", true, false}, {"bottom body", false, false}} {
		s := newSim(t, nil)
		g := s.add(ground())
		bot := s.add(dynBox(0, 0.5, 0.5, 0.5))
		top := s.add(dynBox(0, 1.5, 0.5, 0.5))
		for i := 0; !s.asleep(top); i++ {
			if i == 300 {
				t.Fatalf("the stack did not fall asleep")
			}
			s.run(1)
		}
		gone, kept := top, bot
		if !c.removeTop {
			gone, kept = bot, top
		}
		if c.entity {
			s.w.RemoveEntity(gone)
		} else if err := ecs.RemoveBody(s.w, gone); err != nil {
			t.Fatal(err)
		}
		pairEnds, goneEnds, keptEnds := 0, 0, 0
		for range 60 {
			s.run(1)
			_, e, _, _ := s.tickEvents(bot, top)
			pairEnds += e
			_, e, _, _ = s.tickEvents(gone, g)
			goneEnds += e
			_, e, _, _ = s.tickEvents(kept, g)
			keptEnds += e
		}
		wantGone := 0 // the top box never touched the ground
		if !c.removeTop {
			wantGone = 1
		}
		if pairEnds != 1 || goneEnds != wantGone {
			t.Errorf("%s: the pair ended %d times and the removed box's ground contact %d, want 1 and %d", c.name, pairEnds, goneEnds, wantGone)
		}
		if c.removeTop && keptEnds != 0 {
			t.Errorf("%s: the bottom box's ground contact ended", c.name)
		}
	}
}

// TestContactEventsOfABullet: a 5 cm ball shot at a 10 cm wall at 20, 100
// and 300 m/s, which continuous collision stops at the wall, begins its
// contact and hits the wall at its speed (to 0.1 %) in one tick, once, and
// ends the contact within 5 ticks of the rebound.
func TestContactEventsOfABullet(t *testing.T) {
	for _, speed := range []float64{20, 100, 300} {
		s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{} })
		wall := s.add(staticBox(10, 0, 0.05, 2, 0))
		d := dynCircle(0, 0, 0.05)
		d.LinearVelocity, d.Restitution = components.V(speed, 0), 0.5
		b := s.add(d)
		hitAt, endAt, begins, hits := 0, 0, 0, 0
		for step := 1; step <= 60; step++ {
			s.run(1)
			bg, e, h, last := s.tickEvents(b, wall)
			begins, hits = begins+bg, hits+h
			if h > 0 {
				hitAt = step
				if math.Abs(last.Speed-speed) > 1e-3*speed {
					t.Errorf("%v m/s: hit at %v m/s", speed, last.Speed)
				}
				if bg == 0 {
					t.Errorf("%v m/s: the hit came without its begin", speed)
				}
			}
			if e > 0 && endAt == 0 {
				endAt = step
			}
		}
		if begins != 1 || hits != 1 || endAt == 0 || endAt-hitAt > 5 {
			t.Errorf("%v m/s: %d begins, %d hits (at %d), end at %d", speed, begins, hits, hitAt, endAt)
		}
	}
}

// TestContactEventsOnlyWhereBodiesMeet: a circle or a box moving away from
// a static floor at 5 to 200 m/s, from 2.5 cm to 1 m above it (beyond the
// 2 cm speculative distance), begins no contact (its manifold has
// speculative points while the gap could close within a tick at its speed,
// but it is not closing); a ball thrown up at 8
// m/s from 2 cm above the ground begins one only when it lands, with its
// hit; and a ball rebounding from a wall at 10, 50 and 150 m/s begins its
// contact with its hit and ends it 2 ticks later. Before the contacts of
// the events were told by the approach along the normal, the first
// two began contacts up to 4.3 m from the floor and ended them the next
// tick, and the rebounds ended 3 ticks after the hit.
func TestContactEventsOnlyWhereBodiesMeet(t *testing.T) {
	for _, box := range []bool{false, true} {
		for _, speed := range []float64{5, 20, 60, 200} {
			for _, gap := range []float64{0.025, 0.05, 0.2, 1} {
				s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{} })
				floor := s.add(ground())
				d := dynCircle(0, 0.25+gap, 0.25)
				if box {
					d = dynBox(0, 0.25+gap, 0.25, 0.25)
				}
				d.LinearVelocity = components.V(0, speed)
				b := s.add(d)
				for tick := 1; tick <= 30; tick++ {
					s.run(1)
					if begin, end, hit, _ := s.tickEvents(floor, b); begin+end+hit != 0 {
						t.Fatalf("box %v at %v m/s from %v m: tick %d: %d begins, %d ends, %d hits of a body moving away",
							box, speed, gap, tick, begin, end, hit)
					}
				}
			}
		}
	}

	s := newSim(t, func(c *systems.Config) { c.Sleep = false })
	g := s.add(ground())
	d := dynCircle(0, 0.27, 0.25)
	d.LinearVelocity = components.V(0, 8)
	ball := s.add(d)
	landed := 0
	for tick := 1; tick <= 120 && landed == 0; tick++ {
		s.run(1)
		begin, end, hit, _ := s.tickEvents(g, ball)
		if end != 0 || begin != hit {
			t.Fatalf("thrown ball, tick %d: %d begins, %d ends, %d hits: want a begin only with its hit", tick, begin, end, hit)
		}
		if begin != 0 {
			landed = tick
		}
	}
	// Up at 8 m/s and back down under 10 m/s^2: 1.6 s, 96 ticks.
	if landed < 90 || landed > 100 {
		t.Fatalf("thrown ball began its contact at tick %d, want its landing near tick 96", landed)
	}

	for _, speed := range []float64{10, 50, 150} {
		s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{} })
		wall := staticBox(10, 0, 0.1, 5, 0)
		wall.Restitution = 1
		w := s.add(wall)
		d := dynCircle(0, 0, 0.25)
		d.LinearVelocity, d.Restitution = components.V(speed, 0), 1
		ball := s.add(d)
		var begins, hits, ends []int
		for tick := 1; tick <= 200; tick++ {
			s.run(1)
			begin, end, hit, _ := s.tickEvents(w, ball)
			for range begin {
				begins = append(begins, tick)
			}
			for range hit {
				hits = append(hits, tick)
			}
			for range end {
				ends = append(ends, tick)
			}
		}
		if len(begins) != 1 || len(hits) != 1 || len(ends) != 1 || hits[0] != begins[0] || ends[0] != begins[0]+2 {
			t.Fatalf("rebound at %v m/s: begins at ticks %v, hits %v, ends %v: want one of each, the end 2 ticks after the begin and hit",
				speed, begins, hits, ends)
		}
	}
}
