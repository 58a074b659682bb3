package systems

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/solver"
)

type countTask struct {
	hits []atomic.Int32
}

func (t *countTask) Run(lo, hi, w int) {
	for i := lo; i < hi; i++ {
		t.hits[i].Add(1)
	}
}

// TestPoolCoversEachItemOnce checks that For hands out every index exactly
// once for many job sizes, grains (a static split of heavy items too) and
// worker counts, including more workers than cores, and that a closed pool
// stops.
func TestPoolCoversEachItemOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 8} {
		p := newPool(workers, context.Background(), false)
		for _, n := range []int{0, 1, 2, 3, 7, 20, 64, 65, 1000, 4097} {
			for _, grain := range []int{solver.HeavyItems, 0, 1, 16, 64} {
				task := &countTask{hits: make([]atomic.Int32, n)}
				for rep := 0; rep < 3; rep++ {
					p.For(n, grain, task)
				}
				for i := range task.hits {
					if got := task.hits[i].Load(); got != 3 {
						t.Fatalf("workers=%d n=%d grain=%d: item %d ran %d times, want 3", workers, n, grain, i, got)
					}
				}
			}
		}
		p.close()
	}
}

type stampTask struct {
	job  int64
	hits []atomic.Int64
	bad  atomic.Int64
	rng  atomic.Uint64
}

func (t *stampTask) Run(lo, hi, w int) {
	job := t.job
	for i := lo; i < hi; i++ {
		if t.hits[i].Swap(job) == job {
			t.bad.Add(1)
		}
	}
	// Now and then a slow block, so that helpers finish at different times.
	if t.rng.Add(0x9E3779B97F4A7C15)>>58 == 0 {
		time.Sleep(100 * time.Microsecond)
	}
}

// balancedJob is the grain with which runJob runs a balanced static job
// (not a grain of For, which takes solver.HeavyItems below 0).
const balancedJob = -100

// runJob runs a job of n items on p: For with grain, or with balancedJob a
// static job split by bal (pool.run), whose shares the random slow blocks
// of the stamp task move about.
func runJob(p *pool, n, grain int, t solver.Task, bal *balance) {
	if grain == balancedJob {
		p.run(n, 0, t, bal)
		return
	}
	p.For(n, grain, t)
}

// TestPoolLateWake runs thousands of jobs of random sizes, static and
// dynamic, on 8 workers, with pauses long enough for helpers to park, and
// checks that each job processes every item exactly once. It guards against
// a late wake: a caller descheduled between announcing a job and waking the
// parked helpers woke a helper that had already run that job, which ran it
// again while the caller set up the next one (a data race, and results that
// differed with 8 workers under -race).
func TestPoolLateWake(t *testing.T) {
	p := newPool(8, context.Background(), false)
	defer p.close()
	task := &stampTask{hits: make([]atomic.Int64, 4000)}
	rng := rand.New(rand.NewPCG(1, 2))
	var bal balance
	for job := int64(1); job <= 4000; job++ {
		task.job = job
		n := rng.IntN(len(task.hits))
		grain := []int{0, 1, 64, balancedJob, solver.HeavyItems}[rng.IntN(5)]
		runJob(p, n, grain, task, &bal)
		for i := 0; i < n; i++ {
			if got := task.hits[i].Load(); got != job {
				t.Fatalf("job %d (n %d, grain %d): item %d holds job %d", job, n, grain, i, got)
			}
		}
		if task.bad.Load() != 0 {
			t.Fatalf("job %d: an item was processed twice", job)
		}
		if rng.IntN(64) == 0 {
			time.Sleep(2 * spinFor) // let the helpers park
		}
	}
}

type spinTask struct{ sink []float64 }

func (t *spinTask) Run(lo, hi, w int) {
	for i := lo; i < hi; i++ {
		t.sink[i] = t.sink[i]*0.5 + 1
	}
}

// BenchmarkPoolBarrier reports the cost of one short job (a colour stage of a
// small island: 256 items of trivial work), static and dynamic, on 2
// workers: what a step pays a few hundred times on a coloured pyramid.
func BenchmarkPoolBarrier(b *testing.B) {
	for _, grain := range []int{0, 16} {
		b.Run(fmt.Sprintf("grain=%d", grain), func(b *testing.B) {
			p := newPool(2, context.Background(), false)
			defer p.close()
			t := &spinTask{sink: make([]float64, 256)}
			for i := 0; i < b.N; i++ {
				p.For(len(t.sink), grain, t)
			}
		})
	}
}

// TestPoolManyShortJobs runs tens of thousands of short jobs, static and
// dynamic, on 2 and 3 workers, and checks that each processes every item
// exactly once. Short jobs make the caller finish its own pieces while a
// helper is still entering, the case where a piece was once lost.
func TestPoolManyShortJobs(t *testing.T) {
	for _, workers := range []int{2, 3} {
		p := newPool(workers, context.Background(), workers == 3) // timed on 3 (Config.TimeJobs)
		task := &stampTask{hits: make([]atomic.Int64, 4000)}
		rng := rand.New(rand.NewPCG(1, 2))
		var bal balance
		for job := int64(1); job <= 100000; job++ {
			task.job = job
			n := 32 + rng.IntN(400)
			grain := []int{0, 0, 16, balancedJob, solver.HeavyItems}[rng.IntN(5)]
			runJob(p, n, grain, task, &bal)
			for i := 0; i < n; i++ {
				if got := task.hits[i].Load(); got != job {
					t.Fatalf("workers %d job %d (n %d, grain %d): item %d holds job %d", workers, job, n, grain, i, got)
				}
			}
			if task.bad.Load() != 0 {
				t.Fatalf("job %d: an item was processed twice", job)
			}
		}
		p.close()
	}
}

// TestPoolBalancedSplitCoversEachItemOnce runs static jobs split by fixed,
// lopsided shares (pool.run with a balance whose shares are set by hand,
// down to an empty slice) and checks that every item runs exactly once.
func TestPoolBalancedSplitCoversEachItemOnce(t *testing.T) {
	for _, workers := range []int{2, 3, 8} {
		p := newPool(workers, context.Background(), false)
		for _, lead := range []float64{0, 0.05, 0.5, 0.95, 1} {
			for _, n := range []int{32, 33, 100, 1000, 4097} {
				task := &countTask{hits: make([]atomic.Int32, n)}
				var bal balance
				for rep := 0; rep < 3; rep++ {
					// The caller's share is lead, the rest equal: after
					// each job, set again over what adapt did.
					bal.share = make([]float64, workers)
					for w := range bal.share {
						bal.share[w] = (1 - lead) / float64(workers-1)
					}
					bal.share[0] = lead
					bal.rate = make([]float64, workers)
					p.run(n, 0, task, &bal)
				}
				for i := range task.hits {
					if got := task.hits[i].Load(); got != 3 {
						t.Fatalf("workers=%d lead=%g n=%d: item %d ran %d times, want 3", workers, lead, n, i, got)
					}
				}
			}
		}
		p.close()
	}
}

// TestBalanceAdapt checks the arithmetic of balance.adapt with the workers'
// timings written by hand: a caller twice as fast per item as the helper
// moves the shares a quarter of the way to 2/3 and 1/3 per job; a helper
// whose timing is from another job, or that ran nothing, changes nothing;
// no share falls below the floor; and of three workers, one not timed keeps
// its share while the other two share out theirs.
func TestBalanceAdapt(t *testing.T) {
	p := &pool{workers: 2, helpers: make([]helper, 1)}
	var b balance
	b.split(p, 1000)
	if got := p.bounds; len(got) != 3 || got[0] != 0 || got[1] != 500 || got[2] != 1000 {
		t.Fatalf("equal split of 1000: bounds %v, want [0 500 1000]", got)
	}
	time := func(job uint64, callerItems, callerNs, helperItems, helperNs int64) {
		h := &p.helpers[0]
		h.job, h.items, h.ns = job, helperItems, helperNs
		b.adapt(p, 7, callerItems, callerNs)
	}
	time(7, 500, 1000, 500, 2000) // caller 0.5 items/ns, helper 0.25
	if want := 0.5 + balanceRate*(2.0/3-0.5); math.Abs(b.share[0]-want) > 1e-12 {
		t.Fatalf("after one job: caller's share %v, want %v", b.share[0], want)
	}
	for i := 0; i < 100; i++ {
		time(7, 500, 1000, 500, 2000)
	}
	if math.Abs(b.share[0]-2.0/3) > 1e-9 || math.Abs(b.share[0]+b.share[1]-1) > 1e-12 {
		t.Fatalf("after many jobs: shares %v, want [2/3 1/3]", b.share)
	}
	b.split(p, 999)
	if p.bounds[1] != 666 {
		t.Fatalf("split of 999 at shares %v: bounds %v, want the cut at 666", b.share, p.bounds)
	}
	before := b.share[0]
	time(6, 500, 1000, 500, 10) // the helper's timing is from job 6
	time(7, 500, 1000, 0, 0)    // the helper ran nothing
	if b.share[0] != before {
		t.Fatalf("a job without the helper's timing moved the caller's share from %v to %v", before, b.share[0])
	}
	for i := 0; i < 100; i++ {
		time(7, 1, 1e6, 1e6, 1) // the caller a trillion times slower
	}
	if floor := balanceFloor / 2; b.share[0] < floor-1e-12 || b.share[0] > floor+1e-3 {
		t.Fatalf("caller's share %v, want the floor %v", b.share[0], floor)
	}

	// Three workers, the second helper without a timing of this job: it
	// keeps its share, and the other two share out theirs (2/3 of the
	// items) by their rates, 3 to 1.
	p = &pool{workers: 3, helpers: make([]helper, 2)}
	b = balance{}
	b.split(p, 900)
	for i := 0; i < 200; i++ {
		p.helpers[0].job, p.helpers[0].items, p.helpers[0].ns = 9, 100, 400
		p.helpers[1].job, p.helpers[1].items, p.helpers[1].ns = 8, 300, 1
		b.adapt(p, 9, 300, 400)
	}
	if want := [3]float64{0.5, 1.0 / 6, 1.0 / 3}; math.Abs(b.share[0]-want[0]) > 1e-9 ||
		math.Abs(b.share[1]-want[1]) > 1e-9 || b.share[2] != want[2] {
		t.Fatalf("three workers, one not timed: shares %v, want %v", b.share, want)
	}
}

// timedTask spins each item for a few microseconds and adds up, per worker,
// the time its Run calls took.
type timedTask struct {
	ran [8]atomic.Int64 // ns per worker index
}

func (t *timedTask) Run(lo, hi, w int) {
	start := time.Now()
	for i := lo; i < hi; i++ {
		for time.Since(start) < time.Duration(i-lo+1)*2*time.Microsecond {
		}
	}
	t.ran[w].Add(int64(time.Since(start)))
}

// TestPoolTimesJobs checks what a timed pool adds up for ecs.StageWork: one
// job per For that hands out work, none for the jobs run on the caller alone
// (one worker, one block, or too few static items), each worker's time
// at least what its Run calls took, the caller's within the jobs' wall
// time and the others' within their share of it. Untimed, it adds nothing.
func TestPoolTimesJobs(t *testing.T) {
	for _, workers := range []int{1, 2, 3} {
		for _, timed := range []bool{false, true} {
			p := newPool(workers, context.Background(), timed)
			p.setStage(ecs.StageNarrowPhase)
			task := &timedTask{}
			handed := 0
			for job := 0; job < 40; job++ {
				n, grain := 64, []int{0, 8, solver.HeavyItems}[job%3]
				p.For(n, grain, task)
				if workers > 1 {
					handed++
				}
			}
			// The caller's items in the jobs; those it runs alone below are
			// not timed, and under load they took long enough to make the
			// caller's timed work look short of its items.
			inJobs := task.ran[0].Load()
			p.For(5, 0, task)  // too few static items: the caller alone
			p.For(4, 16, task) // one block: the caller alone
			p.clearStage()
			p.close()
			w := p.spent[ecs.StageNarrowPhase]
			for s, o := range p.spent {
				if ecs.Stage(s) != ecs.StageNarrowPhase && o != (ecs.StageWork{}) {
					t.Fatalf("workers %d: stage %v got %+v, though no job ran in it", workers, ecs.Stage(s), o)
				}
			}
			if !timed || workers == 1 {
				if w != (ecs.StageWork{}) {
					t.Fatalf("workers %d timed %v: got %+v, want nothing", workers, timed, w)
				}
				continue
			}
			var others int64
			for i := 1; i < workers; i++ {
				others += task.ran[i].Load()
			}
			switch {
			case w.Jobs != handed:
				t.Errorf("workers %d: %d jobs counted, %d handed out", workers, w.Jobs, handed)
			case w.Caller < time.Duration(inJobs):
				t.Errorf("workers %d: caller busy %v, less than its items took (%v)", workers, w.Caller, time.Duration(inJobs))
			case w.Others < time.Duration(others):
				t.Errorf("workers %d: others busy %v, less than their items took (%v)", workers, w.Others, time.Duration(others))
			case w.Caller > w.Wall || w.Others > time.Duration(workers-1)*w.Wall:
				t.Errorf("workers %d: caller %v and others %v beyond the jobs' wall time %v", workers, w.Caller, w.Others, w.Wall)
			}
		}
	}
}
