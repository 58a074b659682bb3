package systems

import (
	"math"
	"sync/atomic"

	arche "github.com/mlange-42/arche/ecs"
)

// cachedContact is what a contact keeps from one tick to the next: the
// accumulated impulses of each point, by feature id, for warm starting, and
// the sum of the two bodies' inverse masses they were found with (see
// prepareTask.Run). It is keyed by the entity pair (never by row: rows
// change every tick). The sum sits in what was padding, as massKey's 32
// bits: the entry is one 64-byte cache line.
type cachedContact struct {
	a, b    arche.Entity
	count   int16
	near    bool // the pair is a contact of the events (Physics.near)
	ids     [2]uint32
	invMass uint32
	normal  [2]float64
	tangent [2]float64
}

// massKey returns the upper 32 bits of x's float64 encoding: its sign, its
// whole 11-bit exponent and the top 20 bits of its mantissa. It keeps the
// sum of two inverse masses to a relative 1e-6 down to 2.2e-308 (masses up
// to 4.5e307 kg), and to fewer bits below, where float64 has fewer too.
// A float32 held it to 6e-8, but only between 1e-38 and 3e38: a body given
// 1e50 kg (accepted, it is finite) had a sum of 0 as a float32, its contacts
// were not rescaled when the game gave it back 1 kg, and the box resting on
// it took the warm start of a 1e50 kg support and was thrown to 1e46 m (a
// review's probe).
func massKey(x float64) uint32 { return uint32(math.Float64bits(x) >> 32) }

// massOf returns the value a massKey stands for, x rounded towards zero to 20
// bits of mantissa.
func massOf(k uint32) float64 { return math.Float64frombits(uint64(k) << 32) }

// contactCache is an open-addressing hash table from an entity pair to its
// cachedContact. A Go map costs about 15-50 ns per lookup and allocates as
// it grows; this table costs an add and usually one probe, and its
// buffers are reused every tick. Lookups are read-only, so narrow-phase
// workers share the previous tick's table.
type contactCache struct {
	entries []cachedContact
	// slots holds an index into entries plus one, 0 for empty, so that
	// clear empties the table with the runtime's wide zeroing. Filled with
	// -1 one slot at a time, circle_rain's 320 KB table made its islands
	// stage (where the reset runs) 0.437 ms a step on one worker against
	// 0.422 (medians of 8 alternating runs).
	slots []int32
}

// slot places the pair (a, b) by the sum of the two entity IDs, times
// four, plus the low two bits of b's. Contacts are looked up island by
// island, and the bodies of an island were usually created together, so
// their IDs, and the sums, are close: an island's lookups stay within a few
// cache lines of the table. A scrambling hash sent each to a random line, a
// miss per contact (6 % of many_pyramids' time; 3-8 % of every pile's step,
// measured again on 2026-12-07). Pairs sharing one body, such as a ground
// and everything resting on it, still have distinct sums, so no run of keys
// grows with a body's contact count.
//
// Four slots a sum, in a table of four slots a contact (reset): in a pile
// or a lattice a body is the lower ID of up to four contacts, with partners
// at the same few offsets d (its right neighbour, those above), so the sums
// 2a + d come about two to a value. With two slots a sum and two a
// contact, that part of the table filled up: in a rain of 100 000 bodies
// settling into a lattice, runs of 14 000 taken slots formed and a lookup
// took 160 probes, each a miss on an entry. Over the second half of 300
// steps its solve stage (which prepares and stores the contacts) took 82
// ms a step on 1 worker and 102 on 2, the workers' compare-and-swaps
// meeting on the same lines; now 57 and 35, and the step 112 and 71 ms
// instead of 132 and 140. Every canonical scene and that rain take 1.0-1.2
// probes a lookup, and the canonical scenes run at the same speed as
// before (alternating runs).
func (c *contactCache) slot(a, b arche.Entity) uint64 {
	return ((uint64(a.ID())+uint64(b.ID()))*4 + uint64(b.ID()&3)) & uint64(len(c.slots)-1)
}

// reset empties the cache and sizes it for n entries, at a load of at most
// 1/4 (see slot): entries[k] is then filled and inserted by any worker.
func (c *contactCache) reset(n int) {
	size := 16
	for size < 4*n {
		size *= 2
	}
	if cap(c.slots) < size {
		c.slots = make([]int32, size)
	}
	c.slots = c.slots[:size]
	clear(c.slots)
	c.entries = resize(c.entries, n)
}

// insert enters entry k, already filled, in the table. With shared set,
// workers insert their own entries concurrently: a slot is claimed with a
// compare-and-swap and never freed, so every slot between an entry's home
// and its place is taken, whatever the order of the inserts, and find
// reaches it. Where an entry lands depends on that order; what find returns
// does not, since no two entries have the same pair. Inserting serially
// after the workers had filled the entries took 0.04 ms a step on tumbler,
// and on 2 workers large_pyramid's solve stage took 0.1-0.2 ms longer than
// with the workers inserting. One worker stores plainly: the
// compare-and-swap gains nothing there.
func (c *contactCache) insert(k int, shared bool) {
	e := &c.entries[k]
	mask := uint64(len(c.slots) - 1)
	i := c.slot(e.a, e.b)
	if !shared {
		for c.slots[i] != 0 {
			i = (i + 1) & mask
		}
		c.slots[i] = int32(k) + 1
		return
	}
	for !atomic.CompareAndSwapInt32(&c.slots[i], 0, int32(k)+1) {
		i = (i + 1) & mask
	}
}

// index returns the entry of the pair (a, b) in that order, or -1.
func (c *contactCache) index(a, b arche.Entity) int32 {
	if len(c.entries) == 0 {
		return -1
	}
	mask := uint64(len(c.slots) - 1)
	for i := c.slot(a, b); c.slots[i] != 0; i = (i + 1) & mask {
		k := c.slots[i] - 1
		if e := &c.entries[k]; e.a == a && e.b == b {
			return k
		}
	}
	return -1
}

// workerCount is a count kept by one worker, on a cache line of its own.
type workerCount struct {
	n int
	_ [56]byte
}
