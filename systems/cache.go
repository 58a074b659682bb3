package systems

import arche "github.com/mlange-42/arche/ecs"

// cachedContact is what a contact keeps from one tick to the next: the
// accumulated impulses of each point, by feature id, for warm starting.
// It is keyed by the entity pair (never by row: rows change every tick).
type cachedContact struct {
	a, b    arche.Entity
	count   int32
	ids     [2]uint32
	normal  [2]float64
	tangent [2]float64
}

// contactCache is an open-addressing hash table from an entity pair to its
// cachedContact. A Go map costs about 15-50 ns per lookup and allocates as
// it grows; this table costs an add and usually one probe, and its
// buffers are reused every tick. Lookups are read-only, so narrow-phase
// workers share the previous tick's table.
type contactCache struct {
	entries []cachedContact
	slots   []int32 // index into entries, -1 for empty
}

// slot places the pair (a, b) by the sum of the two entity IDs, twice, plus
// the low bit of b's. Contacts are looked up island by island, and the
// bodies of an island were usually created together, so their IDs, and the
// sums, are close: an island's lookups stay within a few cache lines of the
// table. A scrambling hash sent each to a random line, a miss per contact
// (6 % of many_pyramids' time). Pairs sharing one body, such as a ground and
// everything resting on it, still have distinct sums, so no run of keys
// grows with a body's contact count.
func (c *contactCache) slot(a, b arche.Entity) uint64 {
	return ((uint64(a.ID())+uint64(b.ID()))*2 + uint64(b.ID()&1)) & uint64(len(c.slots)-1)
}

// reset empties the cache and sizes it for n entries, at a load of at most
// 1/2: entries[k] is then filled by any worker, and index makes them findable.
func (c *contactCache) reset(n int) {
	size := 16
	for size < 2*n {
		size *= 2
	}
	if cap(c.slots) < size {
		c.slots = make([]int32, size)
	}
	c.slots = c.slots[:size]
	for i := range c.slots {
		c.slots[i] = -1
	}
	c.entries = resize(c.entries, n)
}

// index enters every entry in the table, in entry order, and returns their
// total point count. Filling the entries (in link order, on the workers)
// reads each contact's impulses at its place in the solver order; this
// serial pass only hashes the keys, which it reads in order.
func (c *contactCache) index() (points int) {
	mask := uint64(len(c.slots) - 1)
	for k := range c.entries {
		e := &c.entries[k]
		points += int(e.count)
		i := c.slot(e.a, e.b)
		for c.slots[i] >= 0 {
			i = (i + 1) & mask
		}
		c.slots[i] = int32(k)
	}
	return points
}

// find returns the cached contact of the pair (a, b) in that order, or nil.
func (c *contactCache) find(a, b arche.Entity) *cachedContact {
	if len(c.entries) == 0 {
		return nil
	}
	mask := uint64(len(c.slots) - 1)
	for i := c.slot(a, b); c.slots[i] >= 0; i = (i + 1) & mask {
		e := &c.entries[c.slots[i]]
		if e.a == a && e.b == b {
			return e
		}
	}
	return nil
}
