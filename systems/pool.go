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
// microseconds on a VM, and on a busy host, where the hypervisor must first
// wake the idle virtual CPU, up to milliseconds. Without the spin the second
// worker joined a colour too late to help and 2 workers ran no faster than 1
// (measured on large_pyramid). 1 ms outlasts the serial stages (gather,
// islands), so within a step the helpers do not park; between steps (16 ms
// in a game) they do. Every 1024 polls the spin yields to the Go scheduler
// and to the operating system (osYield), so a polling helper gives its core
// to any other process that wants it: with another process loading the
// machine, tumbler on 2 workers ran 3.5-3.7 ms/step this way against 4.2-4.3
// with a 100 us spin that only yielded to Go, and polling for the whole step
// without the OS yield had made it 6.6.
const spinFor = 1000 * time.Microsecond

// helper is the state of one worker goroutine besides the caller, padded to
// its own cache line so that polling does not slow the others.
type helper struct {
	// in is the number of the job the helper is entering, that number with
	// workingBit once it has found the job open (it then runs all its own
	// pieces), and with closedBit once it has left; any other value means
	// it has not entered the current job.
	in     atomic.Uint64
	parked atomic.Bool
	wake   chan struct{}
	// The last job the helper worked on: the items and time of its own
	// pieces (ns -1 unless the job was balanced), and with pool.timed the
	// time it ran items in all (busy, for ecs.StageWork). Written before it
	// stores in for leaving, so they reach the caller on the line that
	// tells it the helper is done.
	job   uint64
	items int64
	ns    int64
	busy  int64
	_     [8]byte
}

// subSlices is the number of pieces of each worker's slice of a static
// split. A worker takes its own pieces in order, then those of helpers not
// yet working, from the back: with no other load each worker runs exactly
// its own slice (the cache affinity a static split is for), and a helper
// the OS has descheduled before it started costs nothing; one descheduled
// inside a piece costs that piece.
const subSlices = 4

// claimLine holds the claim flags of one worker's pieces, on a cache line of
// their own. A flag holds the number of the last job that claimed the piece,
// so nothing has to reset the flags between jobs.
type claimLine struct {
	taken [subSlices]atomic.Uint64
	_     [64 - 8*subSlices]byte
}

// closedBit marks the number of a closed job, and in a helper's in word the
// job it has left; workingBit marks, in that word, the job it works on.
const (
	closedBit  = 1 << 63
	workingBit = 1 << 62
)

// pool is the long-lived worker pool of a Physics: workers-1 goroutines plus
// the goroutine that calls Update. It implements [solver.Executor]. Which
// worker runs a block varies from run to run; every task writes only the
// rows of its own blocks, so the results do not.
//
// A job is announced by storing its number in job. A helper enters it by
// storing the number in its own in word, then checks that the job is still
// open and marks itself working; a working helper claims blocks until none
// are left (from an atomic counter, or its own pieces of a static split,
// then the pieces of helpers that are not working), and leaves. The caller
// claims blocks the same way, stealing from every helper not yet working,
// then closes the job and waits for the helpers entering or working in it to
// leave: every block has then been claimed, and every claimed block has
// finished. (A helper stores in, then loads job; the caller stores the
// closed job, then loads in: one of the two sees the other.) A helper that
// finds the job closed skips it. So the caller never waits for a goroutine
// that is not running, and no helper reads the job's fields unless it found
// the job open.
//
// Each word is written by one goroutine, except the claim flags and the
// counter, and a worker steals only from helpers that are not working, so a
// short job moves few cache lines between cores (BenchmarkPoolBarrier).
// TestPoolManyShortJobs caught a helper that had entered, been skipped by
// the caller's steal, and then found the job closed: its pieces never ran.
type pool struct {
	workers int
	timed   bool // time the jobs (spent; Config.TimeJobs), set at creation
	helpers []helper
	quit    atomic.Bool
	claims  []claimLine

	// The current job, written by the caller before job is stored.
	task   solver.Task
	n      int
	grain  int               // 0: static split
	labels []context.Context // per stage, plus the base context last
	stage  ecs.Stage
	// spent adds up the jobs of each stage since Physics.Update last
	// cleared it (ecs.StageWork).
	spent  [ecs.NumStages]ecs.StageWork
	bal    *balance // the split of the current job, if balanced (run)
	bounds []int    // bounds[w]: the first item of worker w's slice, when bal is set
	_      [64]byte
	job    atomic.Uint64
	_      [56]byte
	next   atomic.Int64
	_      [56]byte
	seq    uint64
}

func newPool(workers int, base context.Context, timed bool) *pool {
	p := &pool{workers: workers, timed: timed}
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
		h.in.Store(j)
		if p.job.Load() == j {
			h.in.Store(j | workingBit)
			pprof.SetGoroutineLabels(p.labels[p.stage])
			var start time.Time
			if p.timed {
				start = time.Now()
			}
			items, ns := p.work(i+1, j)
			if p.timed {
				h.busy = int64(time.Since(start))
			}
			h.job, h.items, h.ns = j, items, ns
		}
		h.in.Store(j | closedBit)
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
				osYield()
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

// work claims and runs blocks of job j until none are left. In a balanced
// job it returns the items of worker w's own pieces and the nanoseconds it
// took to run them; otherwise ns is -1.
func (p *pool) work(w int, j uint64) (items, ns int64) {
	ns = -1
	if p.grain != 0 {
		for {
			lo := int(p.next.Add(int64(p.grain))) - p.grain
			if lo >= p.n {
				return
			}
			p.task.Run(lo, min(lo+p.grain, p.n), w)
		}
	}
	// In a balanced job, time this worker's own pieces, for the next split
	// (balance).
	var start time.Time
	if p.bal != nil {
		start = time.Now()
	}
	for k := 0; k < subSlices; k++ {
		items += int64(p.claim(w, w, k, j))
	}
	if p.bal != nil {
		ns = int64(time.Since(start))
	}
	// A helper that found the job open runs all its own pieces that nobody
	// took. One that is only entering may yet find the job closed (the
	// caller closes it after this loop) and run nothing, so its pieces are
	// stolen like those of a helper that has not entered: from the back,
	// where a late owner gets last. Before the caller closes the job, a
	// helper can only have left it after working; the caller's pass over
	// every helper thus covers every piece, and the helpers' passes only
	// share the load.
	for o := 1; o < p.workers; o++ {
		owner := (w + o) % p.workers
		if owner == 0 {
			continue // the caller is always in its job
		}
		if in := p.helpers[owner-1].in.Load(); in == j|workingBit || in == j|closedBit {
			continue
		}
		for k := subSlices - 1; k >= 0; k-- {
			p.claim(w, owner, k, j)
		}
	}
	return items, ns
}

// piece returns the items of piece s of the static split.
func (p *pool) piece(s int) (lo, hi int) {
	if p.bal != nil {
		o, k := s/subSlices, s%subSlices
		a, b := p.bounds[o], p.bounds[o+1]
		return a + k*(b-a)/subSlices, a + (k+1)*(b-a)/subSlices
	}
	total := p.workers * subSlices
	return s * p.n / total, (s + 1) * p.n / total
}

// claim runs piece k of owner's slice on worker w, unless another worker
// has claimed it for job j, and returns the number of items it ran.
func (p *pool) claim(w, owner, k int, j uint64) int {
	f := &p.claims[owner].taken[k]
	v := f.Load()
	if v == j || !f.CompareAndSwap(v, j) {
		return 0
	}
	lo, hi := p.piece(owner*subSlices + k)
	if lo < hi {
		p.task.Run(lo, hi, w)
	}
	return hi - lo
}

// For runs t over [0, n) in blocks of grain items on the workers, handed out
// first come first served; grain 0 splits [0, n) into one contiguous slice
// per worker instead (see solver.Executor), unless n is below staticMin;
// solver.HeavyItems splits even a few items. A job of one block runs on
// the caller alone.
func (p *pool) For(n, grain int, t solver.Task) { p.run(n, grain, t, nil) }

// run is For; a static job with b set is split by b's shares, which it
// then adapts (see balance).
func (p *pool) run(n, grain int, t solver.Task, b *balance) {
	if n <= 0 {
		return
	}
	// staticMin: below this many items a static split is not worth waking
	// anyone for, unless the items are heavy (solver.HeavyItems).
	const staticMin = 32
	if grain <= 0 {
		if p.workers == 1 || n < 2 || grain == 0 && n < staticMin {
			t.Run(0, n, 0)
			return
		}
		grain = 0
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
		p.next.Store(0)
	}
	// No helper is inside a job here (the last For waited for them to
	// leave), so the job's fields can be written.
	if grain == 0 && b != nil {
		p.bal = b.split(p, n)
	}
	p.task, p.n, p.grain = t, n, grain
	p.seq++
	j := p.seq
	var start time.Time
	var caller time.Duration
	if p.timed {
		start = time.Now()
	}
	p.job.Store(j)
	p.wakeParked()
	items, ns := p.work(0, j)
	if p.timed {
		caller = time.Since(start)
	}
	p.job.Store(j | closedBit)
	for i := range p.helpers {
		for k := 1; p.helpers[i].in.Load()&^workingBit == j; k++ {
			if k&1023 == 0 {
				runtime.Gosched()
			}
		}
	}
	if p.timed {
		// A helper writes its busy time before it stores that it left,
		// and the loop above saw every helper that entered the job leave.
		w := &p.spent[p.stage]
		w.Jobs++
		w.Wall += time.Since(start)
		w.Caller += caller
		for i := range p.helpers {
			if h := &p.helpers[i]; h.job == j {
				w.Others += time.Duration(h.busy)
			}
		}
	}
	if p.bal != nil {
		p.bal.adapt(p, j, items, ns)
		p.bal = nil
	}
	p.task = nil
}

// wakeParked wakes the parked helpers; they then look at the job number.
// For and close call it after storing a job. The broad phase calls it before
// rebuilding the grid, with no job yet, so that helpers parked between steps
// (a game's frame is longer than spinFor) wake during the rebuild instead of
// joining the broad phase after the caller has taken its pieces.
func (p *pool) wakeParked() {
	for i := range p.helpers {
		if h := &p.helpers[i]; h.parked.CompareAndSwap(true, false) {
			h.wake <- struct{}{}
		}
	}
}

// close stops the worker goroutines.
func (p *pool) close() {
	p.quit.Store(true)
	p.seq++
	p.job.Store(p.seq)
	p.wakeParked()
}
