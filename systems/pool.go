package systems

import (
	"context"
	"runtime"
	"runtime/pprof"
	"sync/atomic"
	"time"

	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/solver"
)

// spinFor is how long an idle worker keeps polling for the next job before
// it parks. A step hands out about a hundred short jobs (one per colour and
// stage, 10-100 us each); waking a parked goroutine costs tens of
// microseconds on a VM, so without the spin the second worker joined a
// colour too late to help and 2 workers ran no faster than 1 (measured on
// large_pyramid). Between steps (16 ms in a game) the workers park. The spin
// yields to the Go scheduler every 1024 polls.
const spinFor = 100 * time.Microsecond

// helper is the state of one worker goroutine besides the caller, padded to
// its own cache line so that polling does not slow the others.
type helper struct {
	parked atomic.Bool
	wake   chan struct{}
	_      [48]byte
}

// subSlices is the number of pieces of each worker's slice of a static
// split. A worker takes its own pieces in order and then steals the pieces
// others have not started, from the back: with no other load each worker
// runs exactly its own slice (the cache affinity a static split is for), and
// a helper the OS has descheduled, or one that is merely late, costs the
// caller one piece of waiting at most instead of a whole slice.
const subSlices = 4

// claimLine holds the claim flags of one worker's pieces, on a cache line of
// their own.
type claimLine struct {
	taken [subSlices]atomic.Uint32
	_     [64 - 4*subSlices]byte
}

// closedBit marks the job number of a job whose blocks are all done.
const closedBit = 1 << 63

// pool is the long-lived worker pool of a Physics: workers-1 goroutines plus
// the goroutine that calls Update. It implements [solver.Executor]. Which
// worker runs a block varies from run to run; every task writes only the
// rows of its own blocks, so the results do not.
//
// A job is announced by storing its number in job. A helper enters it by
// counting itself in active and checking that the job is still open; it then
// claims blocks (an atomic counter, or the claim flags of a static split)
// until none are left. The caller claims blocks too, waits until every block
// is done, closes the job, and waits for the helpers that entered it to
// leave. A helper that has not entered by then skips the job: the caller
// never waits for a goroutine that is not running, and no helper reads the
// job's fields unless it entered while the job was open.
type pool struct {
	workers int
	helpers []helper
	quit    atomic.Bool
	claims  []claimLine

	// The current job, written by the caller before job is stored.
	task    solver.Task
	n       int
	grain   int // 0: static split
	nblocks int64
	labels  []context.Context // per stage, plus the base context last
	stage   ecs.Stage
	_       [64]byte
	job     atomic.Uint64
	_       [56]byte
	active  atomic.Int32
	_       [60]byte
	next    atomic.Int64
	_       [56]byte
	done    atomic.Int64
	_       [56]byte
	seq     uint64
}

func newPool(workers int, base context.Context) *pool {
	p := &pool{workers: min(workers, 255)}
	p.labels = make([]context.Context, ecs.NumStages+1)
	for s := ecs.Stage(0); s < ecs.NumStages; s++ {
		p.labels[s] = pprof.WithLabels(base, pprof.Labels("stage", s.String()))
	}
	p.labels[ecs.NumStages] = base
	p.claims = make([]claimLine, p.workers)
	p.helpers = make([]helper, p.workers-1)
	for i := range p.helpers {
		p.helpers[i].wake = make(chan struct{}, 1)
		go p.loop(i)
	}
	return p
}

// Workers returns the number of workers, the caller included.
func (p *pool) Workers() int { return p.workers }

// setStage labels the calling goroutine (and, at each For, the workers) with
// the stage, for `go tool pprof -tagfocus=stage=NAME`.
func (p *pool) setStage(s ecs.Stage) {
	p.stage = s
	pprof.SetGoroutineLabels(p.labels[s])
}

// clearStage restores the caller's own labels.
func (p *pool) clearStage() { pprof.SetGoroutineLabels(p.labels[ecs.NumStages]) }

// loop is a worker: wait for a new job, enter it if it is still open, claim
// blocks until none are left, leave.
func (p *pool) loop(i int) {
	h := &p.helpers[i]
	seen := uint64(0)
	for {
		j := p.waitJob(h, seen)
		if p.quit.Load() {
			return
		}
		seen = j
		if j&closedBit != 0 {
			continue
		}
		p.active.Add(1)
		if p.job.Load() == j {
			pprof.SetGoroutineLabels(p.labels[p.stage])
			p.work(i + 1)
		}
		p.active.Add(-1)
	}
}

// waitJob returns the job number once it differs from seen: spinning for
// spinFor, then parked until the caller wakes it.
func (p *pool) waitJob(h *helper, seen uint64) uint64 {
	for {
		start := time.Now()
		for k := 1; ; k++ {
			if j := p.job.Load(); j != seen {
				return j
			}
			if k&1023 == 0 {
				if time.Since(start) > spinFor {
					break
				}
				runtime.Gosched()
			}
		}
		// Park. The caller wakes parked helpers after storing the job, so
		// re-check it after announcing the park; if the caller has already
		// claimed the park, its wake is on the way and must be consumed.
		h.parked.Store(true)
		if j := p.job.Load(); j != seen {
			if h.parked.CompareAndSwap(true, false) {
				return j
			}
		}
		<-h.wake
		// A wake is only a hint (a caller descheduled between storing a job
		// and waking can wake a helper that has seen it already): the loop
		// re-checks the job number.
	}
}

// work claims and runs blocks of the current job until none are left.
func (p *pool) work(w int) {
	if p.grain == 0 {
		p.runPiece(w, w)
		for k := 1; k < p.workers; k++ {
			p.stealPieces(w, (w+k)%p.workers)
		}
		return
	}
	for {
		lo := int(p.next.Add(int64(p.grain))) - p.grain
		if lo >= p.n {
			return
		}
		p.task.Run(lo, min(lo+p.grain, p.n), w)
		p.done.Add(1)
	}
}

// piece returns the items of piece s of the static split.
func (p *pool) piece(s int) (lo, hi int) {
	total := p.workers * subSlices
	return s * p.n / total, (s + 1) * p.n / total
}

// runPiece runs, in order, the pieces of owner's slice that nobody has
// claimed, on worker w.
func (p *pool) runPiece(w, owner int) {
	for k := 0; k < subSlices; k++ {
		p.claim(w, owner, k)
	}
}

// stealPieces runs the unclaimed pieces of owner's slice from the back, where
// the owner, working from the front, will get to them last.
func (p *pool) stealPieces(w, owner int) {
	for k := subSlices - 1; k >= 0; k-- {
		p.claim(w, owner, k)
	}
}

// claim runs piece k of owner's slice on worker w unless another worker has
// claimed it.
func (p *pool) claim(w, owner, k int) {
	if !p.claims[owner].taken[k].CompareAndSwap(0, 1) {
		return
	}
	if lo, hi := p.piece(owner*subSlices + k); lo < hi {
		p.task.Run(lo, hi, w)
	}
	p.done.Add(1)
}

// For runs t over [0, n) in blocks of grain items on the workers, handed out
// first come first served; grain 0 splits [0, n) into one contiguous slice
// per worker instead (see solver.Executor). A job of one block runs on the
// caller alone.
func (p *pool) For(n, grain int, t solver.Task) {
	if n <= 0 {
		return
	}
	// staticMin: below this many items a static split is not worth waking
	// anyone for.
	const staticMin = 32
	if grain == 0 {
		if p.workers == 1 || n < staticMin {
			t.Run(0, n, 0)
			return
		}
		p.nblocks = int64(p.workers * subSlices)
		for i := range p.claims {
			for k := range p.claims[i].taken {
				p.claims[i].taken[k].Store(0)
			}
		}
	} else {
		blocks := (n + grain - 1) / grain
		if p.workers == 1 || blocks == 1 {
			t.Run(0, n, 0)
			return
		}
		// Aim for 4 blocks per worker, for balance, but no smaller blocks
		// than asked.
		if b := n / (4 * p.workers); b > grain {
			grain = b
		}
		p.nblocks = int64((n + grain - 1) / grain)
		p.next.Store(0)
	}
	// No helper is inside a job here (the last For waited for them to
	// leave), so the job's fields can be written.
	p.task, p.n, p.grain = t, n, grain
	p.done.Store(0)
	p.seq++
	j := p.seq
	p.job.Store(j)
	for i := range p.helpers {
		if h := &p.helpers[i]; h.parked.CompareAndSwap(true, false) {
			h.wake <- struct{}{}
		}
	}
	p.work(0)
	for k := 1; p.done.Load() != p.nblocks; k++ {
		if k&1023 == 0 {
			runtime.Gosched()
		}
	}
	p.job.Store(j | closedBit)
	for k := 1; p.active.Load() != 0; k++ {
		if k&1023 == 0 {
			runtime.Gosched()
		}
	}
	p.task = nil
}

// close stops the worker goroutines.
func (p *pool) close() {
	p.quit.Store(true)
	p.seq++
	p.job.Store(p.seq)
	for i := range p.helpers {
		if h := &p.helpers[i]; h.parked.CompareAndSwap(true, false) {
			h.wake <- struct{}{}
		}
	}
}
