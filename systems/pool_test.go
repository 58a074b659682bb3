package systems

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"
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
// once for many job sizes and worker counts, including more workers than
// cores, and that a closed pool stops.
func TestPoolCoversEachItemOnce(t *testing.T) {
	for _, workers := range []int{1, 2, 3, 8} {
		p := newPool(workers, context.Background())
		for _, n := range []int{0, 1, 7, 64, 65, 1000, 4097} {
			for _, grain := range []int{0, 1, 16, 64} {
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

// TestPoolLateWake runs thousands of jobs of random sizes, static and
// dynamic, on 8 workers, with pauses long enough for helpers to park, and
// checks that each job processes every item exactly once. It guards against
// a late wake: a caller descheduled between announcing a job and waking the
// parked helpers woke a helper that had already run that job, which ran it
// again while the caller set up the next one (a data race, and results that
// differed with 8 workers under -race).
func TestPoolLateWake(t *testing.T) {
	p := newPool(8, context.Background())
	defer p.close()
	task := &stampTask{hits: make([]atomic.Int64, 4000)}
	rng := rand.New(rand.NewPCG(1, 2))
	for job := int64(1); job <= 4000; job++ {
		task.job = job
		n := rng.IntN(len(task.hits))
		grain := []int{0, 1, 64}[rng.IntN(3)]
		p.For(n, grain, task)
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
			p := newPool(2, context.Background())
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
		p := newPool(workers, context.Background())
		task := &stampTask{hits: make([]atomic.Int64, 4000)}
		rng := rand.New(rand.NewPCG(1, 2))
		for job := int64(1); job <= 100000; job++ {
			task.job = job
			n := 32 + rng.IntN(400)
			grain := []int{0, 0, 16}[rng.IntN(3)]
			p.For(n, grain, task)
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
