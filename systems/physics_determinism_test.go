package systems_test

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// pileHash runs a pile of n mixed bodies (a 20-wide grid dropped into a
// container, with small random velocities) for steps ticks on the given
// number of workers and returns the FNV-1a hash of math.Float64bits of every
// transform and velocity, plus the profile of the last tick.
//
// With variant set, every fifth body is 30 times denser, so that islands
// take the heavy softness, and the pile runs with Box2DConfig's settings
// (30 Hz, forward colour order) and DeepOverlap 0.01.
func pileHash(t *testing.T, workers, n, steps int, removeAt int, variant bool) (uint64, ecs.Profile) {
	s := newSim(t, func(c *systems.Config) {
		c.Workers = workers
		// Colour islands from 32 contacts (default 1024) so that this small
		// pile exercises the shared-island path as well as whole islands.
		c.LargeIslandContacts = 32
		if variant {
			c.ContactHertz, c.ForwardColorOrder, c.DeepOverlap = 30, true, 0.01
		}
	})
	containerScene(s, 10)
	defs := pileDefs(rand.New(rand.NewPCG(3, 4)), n, 20, 0.6, 0.2)
	if variant {
		for i := range defs {
			if i%5 == 2 {
				defs[i].Density *= 30
			}
		}
	}
	es, err := ecs.NewBodies(s.w, defs, nil)
	if err != nil {
		t.Fatal(err)
	}
	maxColored := 0
	for i := 1; i <= steps; i++ {
		s.run(1)
		maxColored = max(maxColored, s.profile().Colored)
		if i == removeAt {
			// Remove every 7th body mid-run: row order changes.
			var keep []arche.Entity
			for k, e := range es {
				if k%7 == 3 {
					s.w.RemoveEntity(e)
				} else {
					keep = append(keep, e)
				}
			}
			es = keep
		}
	}
	h := fnv.New64a()
	var buf [8]byte
	put := func(x float64) {
		b := math.Float64bits(x)
		for k := range buf {
			buf[k] = byte(b >> (8 * k))
		}
		h.Write(buf[:])
	}
	for _, e := range es {
		xf, v := s.transform(e), s.v(e)
		put(xf.P.X)
		put(xf.P.Y)
		put(xf.R.C)
		put(xf.R.S)
		put(v.Lin.X)
		put(v.Lin.Y)
		put(v.Ang)
	}
	prof := s.profile()
	prof.Colored = maxColored
	return h.Sum64(), prof
}

// TestPhysicsDeterministicAcrossWorkers: a 200-tick run of a 400-body pile
// gives bit-identical transforms and velocities for Workers = 1, 2 and 8, in
// one process, and so does a (200-body, 100-tick) run where every 7th body is
// removed mid-way, for Workers = 1 and twice 8. The pile
// forms islands large enough to be solved by graph colouring (checked with
// the Profile's Colored count), so the parallel colour path is covered. A
// third run (200 bodies, 100 ticks, Workers = 1, 2 and 8) adds heavy
// islands, DeepOverlap and the forward colour order.
func TestPhysicsDeterministicAcrossWorkers(t *testing.T) {
	runs := []struct {
		n, steps, removeAt int
		workers            []int
		variant            bool
	}{
		{400, 200, -1, []int{1, 2, 8}, false},
		// Bodies removed mid-run (smaller, to keep the suite fast under
		// -race), and run-to-run with the same worker count.
		{200, 100, 50, []int{1, 8, 8}, false},
		// Heavy islands, DeepOverlap and the forward colour order.
		{200, 100, -1, []int{1, 2, 8}, true},
	}
	if testing.Short() {
		runs[0].n, runs[0].steps = 200, 100
	}
	for _, r := range runs {
		var ref uint64
		for i, w := range r.workers {
			h, prof := pileHash(t, w, r.n, r.steps, r.removeAt, r.variant)
			t.Logf("%d bodies, %d ticks, removeAt %d, workers %d: hash %016x; last tick: %d bodies, %d contacts, %d islands; most contacts coloured in a tick %d",
				r.n, r.steps, r.removeAt, w, h, prof.Bodies, prof.Contacts, prof.Islands, prof.Colored)
			if prof.Colored == 0 {
				t.Errorf("no contact was solved by colouring: the parallel path is not exercised")
			}
			if i == 0 {
				ref = h
			} else if h != ref {
				t.Errorf("%d bodies, removeAt %d: run %d (workers %d) hash %016x differs from workers %d hash %016x",
					r.n, r.removeAt, i, w, h, r.workers[0], ref)
			}
		}
	}
}
