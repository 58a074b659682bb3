package systems

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
)

// pairKey is an unordered pair of entities.
type pairKey [2]arche.Entity

func keyOf(a, b arche.Entity) pairKey {
	if b.ID() < a.ID() || b.ID() == a.ID() && b.Generation() < a.Generation() {
		a, b = b, a
	}
	return pairKey{a, b}
}

// eventsWorld runs a random scene of boxes and circles in a closed box,
// with the edits a game makes between ticks: bodies removed (by RemoveBody
// and by removing the entity), added, teleported, kicked, woken, and the
// gravity turned, and bodies removed in the tick after their island fell
// asleep. It returns a hash of every event of every tick, and
// checks after each tick that the events tell exactly which pairs touch.
func eventsWorld(t *testing.T, workers int, seed uint64) uint64 {
	cfg := DefaultConfig()
	cfg.Workers = workers
	p, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	w := arche.NewWorld()
	p.Initialize(&w)
	defer p.Finalize(&w)
	evRes := generic.NewResource[ecs.ContactEvents](&w)
	rng := rand.New(rand.NewPCG(seed, 7))
	add := func(d ecs.BodyDef) arche.Entity {
		e, err := ecs.NewBody(&w, d)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	for _, wall := range [][4]float64{{0, -0.5, 8, 0.5}, {0, 12.5, 8, 0.5}, {-8.5, 6, 0.5, 7}, {8.5, 6, 0.5, 7}} {
		d := ecs.DefaultBodyDef()
		d.Type, d.Position, d.Shape = components.Static, components.V(wall[0], wall[1]), components.Box(wall[2], wall[3])
		add(d)
	}
	var bodies []arche.Entity
	spawn := func() {
		d := ecs.DefaultBodyDef()
		d.Position = components.V(-7+14*rng.Float64(), 0.5+10*rng.Float64())
		d.Angle = rng.Float64() * math.Pi
		d.Restitution = []float64{0, 0, 0.3, 0.8}[rng.IntN(4)]
		if rng.IntN(2) == 0 {
			d.Shape = components.Circle(0.15 + 0.3*rng.Float64())
		} else {
			d.Shape = components.Box(0.1+0.4*rng.Float64(), 0.1+0.4*rng.Float64())
		}
		bodies = append(bodies, add(d))
	}
	for range 70 {
		spawn()
	}

	touching := map[pairKey]bool{} // by the events
	var begins, ends, hits, sleptPairs, awayPairs int
	h := fnv.New64a()
	var buf [8]byte
	put := func(x uint64) {
		for i := range buf {
			buf[i] = byte(x >> (8 * i))
		}
		h.Write(buf[:])
	}
	putE := func(e arche.Entity) { put(uint64(e.ID())<<32 | uint64(e.Generation())) }
	wasAsleep := map[arche.Entity]bool{}
	var justSlept []arche.Entity
	for tick := 1; tick <= 900; tick++ {
		// A body of an island that fell asleep in the last tick, removed
		// now: its island still lists it.
		if len(justSlept) > 0 && rng.IntN(3) == 0 {
			e := justSlept[rng.IntN(len(justSlept))]
			w.RemoveEntity(e)
			for k, b := range bodies {
				if b == e {
					bodies = append(bodies[:k], bodies[k+1:]...)
					break
				}
			}
		}
		switch r := rng.IntN(100); {
		case r < 3 && len(bodies) > 10:
			k := rng.IntN(len(bodies))
			if rng.IntN(2) == 0 {
				if err := ecs.RemoveBody(&w, bodies[k]); err != nil {
					t.Fatal(err)
				}
			} else {
				w.RemoveEntity(bodies[k])
			}
			bodies = append(bodies[:k], bodies[k+1:]...)
		case r < 6:
			spawn()
		case r < 8:
			e := bodies[rng.IntN(len(bodies))]
			if err := ecs.SetTransform(&w, e, components.V(-7+14*rng.Float64(), 0.5+10*rng.Float64()), 0); err != nil {
				t.Fatal(err)
			}
		case r < 10:
			e := bodies[rng.IntN(len(bodies))]
			if err := ecs.ApplyLinearImpulse(&w, e, components.V(rng.Float64()-0.5, 2), ecs.GetGravity(&w)); err != nil {
				t.Fatal(err)
			}
		case r < 12:
			if err := ecs.Wake(&w, bodies[rng.IntN(len(bodies))]); err != nil {
				t.Fatal(err)
			}
		case r == 12 && tick%4 == 0:
			g := ecs.GetGravity(&w)
			if err := ecs.SetGravity(&w, components.V(g.Y, -g.X)); err != nil { // a quarter turn
				t.Fatal(err)
			}
		}
		p.Update(&w)
		justSlept = justSlept[:0]
		for _, b := range bodies {
			asleep := ecs.IsSleeping(&w, b)
			if asleep && !wasAsleep[b] {
				justSlept = append(justSlept, b)
			}
			wasAsleep[b] = asleep
		}

		ev := evRes.Get()
		for _, b := range ev.Begin {
			if b.A.ID() >= b.B.ID() {
				t.Fatalf("tick %d: begin of %v and %v: A has the larger entity ID", tick, b.A, b.B)
			}
		}
		for _, e := range ev.End {
			k := keyOf(e.A, e.B)
			if !touching[k] {
				t.Fatalf("tick %d: end of %v, which was not touching", tick, k)
			}
			delete(touching, k)
			ends++
			put(1)
			putE(e.A)
			putE(e.B)
		}
		for _, b := range ev.Begin {
			k := keyOf(b.A, b.B)
			if touching[k] {
				t.Fatalf("tick %d: begin of %v, which was touching", tick, k)
			}
			touching[k] = true
			begins++
			put(2)
			putE(b.A)
			putE(b.B)
			put(math.Float64bits(b.Normal.X))
			put(uint64(b.Count))
		}
		for _, c := range ev.Hit {
			if !touching[keyOf(c.A, c.B)] {
				t.Fatalf("tick %d: hit of %v, which does not touch", tick, keyOf(c.A, c.B))
			}
			if !(c.Speed > cfg.HitSpeed) {
				t.Fatalf("tick %d: hit at %v m/s, below HitSpeed", tick, c.Speed)
			}
			hits++
			put(3)
			putE(c.A)
			put(math.Float64bits(c.Speed))
		}

		// What touches: the awake contacts of this tick and those the
		// sleeping islands keep, where near (Physics.near) or hit.
		truth := map[pairKey]bool{}
		for k, i := range p.touching {
			if p.cache[p.cur].entries[k].near {
				truth[keyOf(p.pairEnts[i][0], p.pairEnts[i][1])] = true
			} else {
				awayPairs++
			}
		}
		for _, ss := range p.sleep.sets {
			for _, c := range ss.contacts {
				if c.near {
					truth[keyOf(c.a, c.b)] = true
				}
				sleptPairs++
			}
		}
		if len(truth) != len(touching) {
			t.Fatalf("tick %d: %d pairs touch, the events tell %d", tick, len(truth), len(touching))
		}
		for k := range truth {
			if !touching[k] {
				t.Fatalf("tick %d: %v touches, the events never began it", tick, k)
			}
		}
	}
	// Each kind of event, and contacts kept asleep, must have come up.
	if begins == 0 || ends == 0 || hits == 0 || sleptPairs == 0 || awayPairs == 0 {
		t.Fatalf("%d begins, %d ends, %d hits, %d pair-ticks asleep, %d touching but not near: the scene tried too little",
			begins, ends, hits, sleptPairs, awayPairs)
	}
	return h.Sum64()
}

// TestContactEventsTellWhatTouches: over 900 ticks of a random scene with
// removals, spawns, teleports, kicks, wakes and gravity turns, the begin
// and end events keep a set of pairs equal, after every tick, to the pairs
// that touch (awake contacts and those sleeping islands keep); no pair
// begins twice or ends without having begun, every hit is of a touching
// pair above HitSpeed; and the events are the same for 1, 2 and 3 workers.
func TestContactEventsTellWhatTouches(t *testing.T) {
	for seed := uint64(1); seed <= 3; seed++ {
		want := eventsWorld(t, 1, seed)
		for _, n := range []int{2, 3} {
			if got := eventsWorld(t, n, seed); got != want {
				t.Errorf("seed %d: events hash %x on %d workers, %x on 1", seed, got, n, want)
			}
		}
	}
}
