package systems_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/narrowphase"
	"github.com/tumble2d/tumble/systems"
)

func (s *sim) sensorEvents() *ecs.SensorEvents {
	r := generic.NewResource[ecs.SensorEvents](s.w)
	return r.Get()
}

// sensorCounts counts the begin and end events of the pair (sensor, visitor)
// in the last tick.
func (s *sim) sensorCounts(sensor, visitor arche.Entity) (begin, end int) {
	ev := s.sensorEvents()
	for _, b := range ev.Begin {
		if b.Sensor == sensor && b.Visitor == visitor {
			begin++
		}
	}
	for _, e := range ev.End {
		if e.Sensor == sensor && e.Visitor == visitor {
			end++
		}
	}
	return
}

// TestSensorZone: a ball falling through a static sensor zone begins
// overlapping it in the first tick its shape reaches the zone and ends in
// the first tick it has left, once each; the zone does not touch it: the
// ball falls bit for bit as it does without the zone.
func TestSensorZone(t *testing.T) {
	fall := func(zone bool) (arche.Entity, arche.Entity, *sim, []int, []int) {
		s := newSim(t, nil)
		var z arche.Entity
		if zone {
			d := staticBox(0, 5, 2, 1, 0) // y from 4 to 6
			d.Sensor = true
			z = s.add(d)
		}
		ball := s.add(dynCircle(0.3, 10, 0.25))
		var begins, ends []int
		for i := 1; i <= 90; i++ {
			s.run(1)
			if zone {
				b, e := s.sensorCounts(z, ball)
				for range b {
					begins = append(begins, i)
				}
				for range e {
					ends = append(ends, i)
				}
			}
		}
		return z, ball, s, begins, ends
	}
	_, ball, s, begins, ends := fall(true)
	_, ball0, s0, _, _ := fall(false)
	if s.transform(ball) != s0.transform(ball0) || s.v(ball) != s0.v(ball0) {
		t.Fatalf("the sensor changed the fall: %+v against %+v", s.transform(ball), s0.transform(ball0))
	}
	// The ball's y after tick i, m = i n substeps of h = dt / n, is
	// 10 - g h^2 m (m+1) / 2 (the integrator's closed form); it overlaps
	// the zone from y <= 6.25 to y < 3.75.
	y := func(i int) float64 {
		n := s.cfg.SubSteps
		h, m := s.cfg.Dt/float64(n), float64(i*n)
		return 10 - 10*h*h*m*(m+1)/2
	}
	first := func(limit float64) int {
		for i := 1; ; i++ {
			if y(i) < limit {
				return i
			}
		}
	}
	if want := []int{first(6.25 + 1e-9)}; !slices.Equal(begins, want) {
		t.Errorf("begin events at ticks %v, want %v", begins, want)
	}
	if want := []int{first(3.75)}; !slices.Equal(ends, want) {
		t.Errorf("end events at ticks %v, want %v", ends, want)
	}
}

// TestSensorSeesSleepers: a static sensor created around a box asleep on
// the ground reports it in the next tick and leaves it asleep; moved away
// by the game, it ends the overlap; a kinematic sensor sweeping through a
// sleeping stack reports each box and wakes none; SensorOverlaps lists
// what overlaps a sensor now.
func TestSensorSeesSleepers(t *testing.T) {
	s := newSim(t, nil)
	floor := s.add(ground())
	stack := sleepingStack(t, s, 0, 3)
	d := staticBox(0, 0.5, 1, 1, 0)
	d.Sensor = true
	zone := s.add(d)
	s.run(1)
	if b, _ := s.sensorCounts(zone, stack[0]); b != 1 {
		t.Fatalf("%d begin events for the sleeper under the sensor, want 1", b)
	}
	if want := []arche.Entity{floor, stack[0], stack[1]}; !slices.Equal(s.p.SensorOverlaps(zone, nil), want) {
		t.Errorf("SensorOverlaps = %v, want the ground and the two lower boxes %v", s.p.SensorOverlaps(zone, nil), want)
	}
	xf := generic.NewMap[components.Transform](s.w)
	xf.Get(zone).P = components.V(10, 0.5)
	s.run(1)
	if _, e := s.sensorCounts(zone, stack[0]); e != 1 || !allAsleep(s, stack) {
		t.Fatalf("moved away: %d end events, stack asleep %v; want 1 and asleep", e, allAsleep(s, stack))
	}
	k := staticBox(-3, 1.5, 0.2, 2, 0)
	k.Type, k.Sensor, k.LinearVelocity = components.Kinematic, true, components.V(3, 0)
	sweeper := s.add(k)
	seen := map[arche.Entity]bool{}
	for i := 0; i < 120; i++ {
		s.run(1)
		for _, b := range s.sensorEvents().Begin {
			if b.Sensor == sweeper {
				seen[b.Visitor] = true
			}
		}
		if !allAsleep(s, stack) {
			t.Fatalf("tick %d: the sweeping sensor woke the stack", i)
		}
	}
	for _, e := range stack {
		if !seen[e] {
			t.Errorf("the sweeping sensor never reported box %v", e)
		}
	}
	if got := s.p.SensorOverlaps(stack[0], nil); len(got) != 0 {
		t.Errorf("a body that is not a sensor overlaps %v", got)
	}
}

// TestSensorRules: a sensor does not see another sensor, sees only what
// its filter lets it collide with, stops no bullet (continuous collision
// passes it), is pushed by nothing and pushes nothing; a removed visitor
// ends its overlap in the next tick.
func TestSensorRules(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{} })
	d := staticBox(0, 0, 1, 1, 0)
	d.Sensor, d.Filter = true, components.Filter{Ignore: 4}
	zone := s.add(d)
	other := staticBox(0.5, 0, 1, 1, 0)
	other.Sensor = true
	zone2 := s.add(other)
	seen := s.add(dynBox(0.2, 0.2, 0.2, 0.2))
	hd := dynBox(-0.2, -0.2, 0.2, 0.2)
	hd.Filter.Category = 4
	hidden := s.add(hd)
	bd := dynBox(-5, 0.5, 0.05, 0.05)
	bd.LinearVelocity = components.V(400, 0)
	bullet := s.add(bd)
	s.run(1)
	if got := s.p.SensorOverlaps(zone, nil); !slices.Equal(got, []arche.Entity{seen}) {
		t.Errorf("zone overlaps %v, want only %v (not the other sensor, not category 4)", got, seen)
	}
	if got := s.p.SensorOverlaps(zone2, nil); !slices.Equal(got, []arche.Entity{seen, hidden}) {
		t.Errorf("zone2 overlaps %v, want %v", got, []arche.Entity{seen, hidden})
	}
	if x, want := s.pos(bullet).X, -5+400*s.cfg.Dt; math.Abs(x-want) > 1e-9 {
		t.Errorf("bullet at x = %.4f, want %.4f: in free flight through the sensors", x, want)
	}
	for _, e := range []arche.Entity{seen, hidden} {
		if v := s.v(e); v.Lin != (components.Vec2{}) || v.Ang != 0 {
			t.Errorf("a body inside the sensors moves: %+v", v)
		}
	}
	if err := ecs.RemoveBody(s.w, seen); err != nil {
		t.Fatal(err)
	}
	s.run(1)
	if _, e := s.sensorCounts(zone, seen); e != 1 {
		t.Errorf("%d end events for the removed visitor, want 1", e)
	}
}

// sensorRunHash runs a pile with sensors of every kind (static zones, a
// kinematic sweeper, dynamic sensors falling through the pile) on the
// given workers, and returns the sensor events of every tick, written out,
// and how many began and ended.
func sensorRunHash(t *testing.T, workers int) (string, int, int, *sim) {
	s := newSim(t, func(c *systems.Config) { c.Workers = workers; c.LargeIslandContacts = 32 })
	containerScene(s, 10)
	r := rand.New(rand.NewPCG(7, 8))
	defs := pileDefs(r, 250, 20, 0.6, 0.2)
	for i := range defs {
		if i%25 == 3 {
			defs[i].Sensor = true
		}
	}
	if _, err := ecs.NewBodies(s.w, defs, nil); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 4; i++ {
		d := staticBox(-6+4*float64(i), 2, 1.5, 2, 0)
		d.Sensor = true
		s.add(d)
	}
	k := staticBox(-9, 1, 0.3, 1, 0)
	k.Type, k.Sensor, k.LinearVelocity = components.Kinematic, true, components.V(2, 0)
	s.add(k)
	var h []byte
	begins, ends := 0, 0
	for i := 0; i < 300; i++ {
		s.run(1)
		ev := s.sensorEvents()
		h = fmt.Appendf(h, "%d:%+v|%+v;", i, ev.Begin, ev.End)
		begins, ends = begins+len(ev.Begin), ends+len(ev.End)
	}
	return string(h), begins, ends, s
}

// TestSensorDeterministicAndFree: the sensor events of a pile are the same
// on 1, 2 and 3 workers, and there are both kinds; and a warm step with
// sensors allocates nothing.
func TestSensorDeterministicAndFree(t *testing.T) {
	one, begins, ends, s := sensorRunHash(t, 1)
	t.Logf("%d begin and %d end events in 300 ticks", begins, ends)
	if begins < 50 || ends < 20 {
		t.Fatalf("too few sensor events to compare: %d begin, %d end", begins, ends)
	}
	for _, w := range []int{2, 3} {
		if got, _, _, _ := sensorRunHash(t, w); got != one {
			t.Errorf("%d workers: the sensor events differ from 1 worker's", w)
		}
	}
	s.run(60) // past the growth of the last buffers
	if n := testing.AllocsPerRun(20, func() { s.run(1) }); n != 0 {
		t.Errorf("a warm step with sensors allocated %v times", n)
	}
}

// TestSensorOverlapsMatchBruteForce: in a pile with sensors of every kind,
// fast bodies thrown across it (the grid's candidates must reach their
// final poses), bodies removed and sensors toggled mid-run, every sensor's
// overlaps after every tick are exactly the bodies a brute force finds
// overlapping it at the poses the tick wrote, under the filters.
func TestSensorOverlapsMatchBruteForce(t *testing.T) {
	_, _, _, s := sensorRunHash(t, 2)
	r := rand.New(rand.NewPCG(9, 10))
	for i := 0; i < 6; i++ {
		d := dynCircle(-9, 1+3*float64(i), 0.2)
		d.LinearVelocity, d.GravityScale = components.V(60+20*float64(i), 0), 0
		s.add(d)
	}
	f := generic.NewFilter3[components.Transform, components.Shape, components.Material]()
	mats := generic.NewMap[components.Material](s.w)
	checked := 0
	for tick := 0; tick < 200; tick++ {
		s.run(1)
		type body struct {
			e   arche.Entity
			xf  components.Transform
			sh  components.Shape
			mat components.Material
		}
		var all []body
		q := f.Query(s.w)
		for q.Next() {
			xf, sh, mat := q.Get()
			all = append(all, body{q.Entity(), *xf, *sh, *mat})
		}
		for _, sn := range all {
			if !sn.mat.Sensor {
				continue
			}
			var want []arche.Entity
			for _, v := range all {
				if v.e == sn.e || v.mat.Sensor || !sn.mat.Filter.Collides(v.mat.Filter) {
					continue
				}
				if d, _ := narrowphase.Distance(sn.sh, sn.xf, v.sh, v.xf); d <= 0 {
					want = append(want, v.e)
				}
			}
			slices.SortFunc(want, func(a, b arche.Entity) int { return int(a.ID()) - int(b.ID()) })
			got := s.p.SensorOverlaps(sn.e, nil)
			if !slices.Equal(got, want) {
				t.Fatalf("tick %d: sensor %v overlaps %v, the brute force finds %v", tick, sn.e, got, want)
			}
			checked += len(want)
		}
		// Now and then remove a body, or turn one into a sensor or back.
		if tick%10 == 5 {
			e := all[r.IntN(len(all))].e
			if r.IntN(2) == 0 {
				if err := ecs.RemoveBody(s.w, e); err != nil {
					t.Fatal(err)
				}
			} else {
				m := mats.Get(e)
				m.Sensor = !m.Sensor
			}
		}
	}
	if checked < 500 {
		t.Fatalf("only %d overlaps checked", checked)
	}
	t.Logf("%d overlaps checked", checked)
}

// TestSensorSeesBodyStruckIntoIt: a box at rest beside a sensor zone,
// struck by a heavy box at 60 m/s, crosses into the zone within the tick
// of the blow, farther than its box at the start of the tick reached: the
// sensor reports it in that tick, not the next.
func TestSensorSeesBodyStruckIntoIt(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{} })
	z := staticBox(2.5, 0, 1.5, 1, 0) // x from 1 to 4
	z.Sensor = true
	zone := s.add(z)
	target := s.add(dynBox(0.5, 0, 0.25, 0.25))
	sd := dynBox(-0.5, 0, 0.25, 0.25)
	sd.Density, sd.LinearVelocity = 100, components.V(60, 0)
	s.add(sd)
	for tick := 1; tick <= 10; tick++ {
		s.run(1)
		in, _ := narrowphase.Distance(components.Box(1.5, 1), s.transform(zone), components.Box(0.25, 0.25), s.transform(target))
		b, _ := s.sensorCounts(zone, target)
		if in <= 0 {
			if b != 1 {
				t.Fatalf("tick %d: the target is in the zone (x = %.3f) but began %d times", tick, s.pos(target).X, b)
			}
			return
		}
	}
	t.Fatalf("the struck box never reached the zone (x = %.3f)", s.pos(target).X)
}
