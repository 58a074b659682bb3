package solver

// Task is a unit of parallel work over an index range.
type Task interface {
	// Run processes the items [lo, hi); worker is the index of the calling
	// worker, in [0, workers), for per-worker scratch.
	Run(lo, hi, worker int)
}

// Executor runs tasks over index ranges. Package systems provides one backed
// by long-lived worker goroutines; [Serial] runs everything on the caller.
type Executor interface {
	// For calls t.Run on blocks that cover [0, n) exactly once, each of at
	// least grain items (except the last), possibly concurrently, and returns
	// when all have finished. grain == 0 asks for a static split instead:
	// one contiguous slice per worker, slice w meant for worker w, so that
	// consecutive stages over rows in the same order keep each row on the
	// same core. It is a placement, not a promise (a late worker's slice
	// may be run, in parts, by others), so tasks must not depend on it.
	// grain < 0 ([HeavyItems]) asks for the same static split where each
	// item is a large piece of work, so that even a few items are shared.
	For(n, grain int, t Task)
	// Workers returns the number of workers (>= 1).
	Workers() int
}

// HeavyItems is the grain that asks [Executor.For] for a static split of
// items that are each a large piece of work (a chunk of 256 rows or 1 024
// links of the large islands' bound, boundlarge.go). An executor may run a
// static split of a few light items on the caller alone; on 2 workers the
// pool did so for the bound's 8 to 20 chunks, 0.23 ms a step of
// large_pyramid on the caller while the other worker waited.
const HeavyItems = -1

// Serial is the [Executor] that runs every block on the calling goroutine.
type Serial struct{}

// For runs t over [0, n) as a single block.
func (Serial) For(n, grain int, t Task) {
	if n > 0 {
		t.Run(0, n, 0)
	}
}

// Workers returns 1.
func (Serial) Workers() int { return 1 }
