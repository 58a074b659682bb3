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
	ack    atomic.Uint64 // last job finished
	parked atomic.Bool
	wake   chan struct{}
	_      [40]byte
}

// pool is the long-lived worker pool of a Physics: workers-1 goroutines plus
// the goroutine that calls Update. It implements [solver.Executor]. Blocks
// are handed out by an atomic counter, so which worker runs a block varies
// from run to run; every task writes only the rows of its own blocks, so the
// results do not.
//
// A job is announced by bumping job, a sequence number; every helper runs
// its share and stores the number in its ack, and For returns once all have.
type pool struct {
	workers int
	helpers []helper
	quit    atomic.Bool

	// The current job, written by the caller before job is bumped.
	task   solver.Task
	n      int
	grain  int
	labels []context.Context // per stage, plus the base context last
	stage  ecs.Stage
	_      [64]byte
	job    atomic.Uint64
	_      [56]byte
	next   atomic.Int64
	_      [56]byte
	seq    uint64
}

func newPool(workers int, base context.Context) *pool {
	p := &pool{workers: min(workers, 255)}
	p.labels = make([]context.Context, ecs.NumStages+1)
	for s := ecs.Stage(0); s < ecs.NumStages; s++ {
		p.labels[s] = pprof.WithLabels(base, pprof.Labels("stage", s.String()))
	}
	p.labels[ecs.NumStages] = base
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

// loop is a worker: wait for a new job, run its share, acknowledge it.
func (p *pool) loop(i int) {
	h := &p.helpers[i]
	seen := uint64(0)
	for {
		j := p.waitJob(h, seen)
		if p.quit.Load() {
			return
		}
		seen = j
		pprof.SetGoroutineLabels(p.labels[p.stage])
		p.work(i + 1)
		h.ack.Store(j)
	}
}

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
		// Park. The caller wakes parked helpers after bumping the job, so
		// re-check it after announcing the park; if the caller has already
		// claimed the park, its wake is on the way and must be consumed.
		h.parked.Store(true)
		if j := p.job.Load(); j != seen {
			if h.parked.CompareAndSwap(true, false) {
				return j
			}
		}
		<-h.wake
		// A wake is only a hint: a caller descheduled between bumping the job
		// and waking the helpers can wake a helper that already ran that job
		// and parked again. The loop re-checks the job instead of trusting
		// the wake (returning it here once made a helper run a finished job
		// again, racing with the next one).
	}
}

func (p *pool) work(w int) {
	if p.grain == 0 {
		// Static split: slice w of p.workers.
		if lo, hi := w*p.n/p.workers, (w+1)*p.n/p.workers; lo < hi {
			p.task.Run(lo, hi, w)
		}
		return
	}
	for {
		lo := int(p.next.Add(int64(p.grain))) - p.grain
		if lo >= p.n {
			return
		}
		p.task.Run(lo, min(lo+p.grain, p.n), w)
	}
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
	}
	// Every helper takes part in every job and acknowledges it; one that
	// finds no block left acknowledges at once.
	p.task, p.n, p.grain = t, n, grain
	p.next.Store(0)
	p.seq++
	j := p.seq
	p.job.Store(j)
	for i := range p.helpers {
		if h := &p.helpers[i]; h.parked.CompareAndSwap(true, false) {
			h.wake <- struct{}{}
		}
	}
	p.work(0)
	for i := range p.helpers {
		for k := 1; p.helpers[i].ack.Load() != j; k++ {
			if k&1023 == 0 {
				runtime.Gosched()
			}
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
