package systems

import (
	"math/rand/v2"
	"sync"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
)

// latticePairs makes the contacts of a lattice of cols x rows bodies made
// row by row, as a rain settles into one: each body with its right
// neighbour and the three above it, lower ID first.
func latticePairs(w *arche.World, cols, rows int) ([][2]arche.Entity, []arche.Entity) {
	ents := make([]arche.Entity, cols*rows)
	for i := range ents {
		ents[i] = w.NewEntity()
	}
	var pairs [][2]arche.Entity
	for r := range rows {
		for c := range cols {
			i := r*cols + c
			if c+1 < cols {
				pairs = append(pairs, [2]arche.Entity{ents[i], ents[i+1]})
			}
			if r+1 == rows {
				continue
			}
			for _, dc := range []int{-1, 0, 1} {
				if c+dc >= 0 && c+dc < cols {
					pairs = append(pairs, [2]arche.Entity{ents[i], ents[i+cols+dc]})
				}
			}
		}
	}
	return pairs, ents
}

// fillCache enters pairs in c, serially or from workers goroutines at once
// (the store's shared inserts).
func fillCache(c *contactCache, pairs [][2]arche.Entity, workers int) {
	c.reset(len(pairs))
	for k, p := range pairs {
		c.entries[k] = cachedContact{a: p[0], b: p[1], count: int16(k)}
	}
	if workers == 1 {
		for k := range pairs {
			c.insert(k, false)
		}
		return
	}
	var wg sync.WaitGroup
	for wk := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := wk; k < len(pairs); k += workers {
				c.insert(k, true)
			}
		}()
	}
	wg.Wait()
}

// TestContactCacheFindsEveryPair: every entered pair is found, serially
// filled or by three goroutines at once, and pairs not entered (the same
// bodies the other way round, or never in contact) are not.
func TestContactCacheFindsEveryPair(t *testing.T) {
	w := arche.NewWorld()
	pairs, _ := latticePairs(&w, 40, 30)
	r := rand.New(rand.NewPCG(1, 2))
	r.Shuffle(len(pairs), func(i, j int) { pairs[i], pairs[j] = pairs[j], pairs[i] })
	absent := pairs[len(pairs)-100:]
	pairs = pairs[:len(pairs)-100]
	for _, workers := range []int{1, 3} {
		var c contactCache
		fillCache(&c, pairs, workers)
		for k, p := range pairs {
			i := c.index(p[0], p[1])
			if i < 0 || c.entries[i].count != int16(k) {
				t.Fatalf("%d workers: pair %d %v: index %d", workers, k, p, i)
			}
			if i := c.index(p[1], p[0]); i >= 0 {
				t.Fatalf("%d workers: pair %d found the other way round", workers, k)
			}
		}
		for _, p := range absent {
			if i := c.index(p[0], p[1]); i >= 0 {
				t.Fatalf("%d workers: absent pair %v found at %d", workers, p, i)
			}
		}
	}
}

// TestContactCacheLatticeProbes: a lattice of 100 000 bodies (a rain
// settled into rows, four contacts a body), its contacts entered in a
// shuffled order as the store enters them, must not fill any part of the
// table. With two slots a sum of IDs and a table of two slots a contact,
// runs of 893 taken slots formed there, which a lookup of a new contact
// walks to the end (about 450 probes; 160 a lookup in a simulated rain);
// now about one, and on the way there (a quarter of the contacts) too.
func TestContactCacheLatticeProbes(t *testing.T) {
	w := arche.NewWorld()
	const cols = 447
	pairs, ents := latticePairs(&w, cols, 224)
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{len(pairs) / 4, len(pairs)} {
		sub := append([][2]arche.Entity(nil), pairs[:n]...)
		r.Shuffle(n, func(i, j int) { sub[i], sub[j] = sub[j], sub[i] })
		var c contactCache
		fillCache(&c, sub, 1)
		mask := uint64(len(c.slots) - 1)
		found, longest, run := 0, 0, 0
		for s, k := range c.slots {
			if k == 0 {
				run = 0
				continue
			}
			run++
			longest = max(longest, run)
			e := &c.entries[k-1]
			found += int((uint64(s)-c.slot(e.a, e.b))&mask) + 1
		}
		// New contacts: bodies two columns apart, which the lattice does
		// not hold; a lookup walks to an empty slot.
		missed, misses := 0, 0
		for i := 0; i+2 < len(ents); i += 7 {
			if c.index(ents[i], ents[i+2]) >= 0 {
				t.Fatalf("pair of bodies two columns apart found")
			}
			for s := c.slot(ents[i], ents[i+2]); c.slots[s] != 0; s = (s + 1) & mask {
				missed++
			}
			misses++
		}
		mf, mm := float64(found)/float64(n), float64(missed+misses)/float64(misses)
		t.Logf("%d contacts: %.2f probes a found lookup, %.2f a missed one, longest run %d of %d slots",
			n, mf, mm, longest, len(c.slots))
		if mf > 1.5 || mm > 2 || longest > 64 {
			t.Errorf("%d contacts: %.2f probes a found lookup, %.2f a missed one, a run of %d taken slots; want at most 1.5, 2 and 64",
				n, mf, mm, longest)
		}
	}
}
