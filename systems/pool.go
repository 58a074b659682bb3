package systems

import (
	"context"
	"runtime/pprof"
	"sync/atomic"

	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/solver"
)

// pool is the long-lived worker pool of a Physics: workers-1 goroutines plus
// the goroutine that calls Update. It implements [solver.Executor]. Blocks
// are handed out by an atomic counter, so which worker runs a block varies
// from run to run; every task writes only the rows of its own blocks, so the
// results do not.
type pool struct {
	workers int
	wake    []chan struct{}
	done    chan struct{}
	quit    chan struct{}

	// The current job, written by the caller before waking workers.
	task   solver.Task
	n      int
	grain  int
	next   atomic.Int64
	labels []context.Context // per stage, plus the base context last
	stage  ecs.Stage
}

func newPool(workers int, base context.Context) *pool {
	p := &pool{workers: workers, done: make(chan struct{}, workers), quit: make(chan struct{})}
	p.labels = make([]context.Context, ecs.NumStages+1)
	for s := ecs.Stage(0); s < ecs.NumStages; s++ {
		p.labels[s] = pprof.WithLabels(base, pprof.Labels("stage", s.String()))
	}
	p.labels[ecs.NumStages] = base
	for w := 1; w < workers; w++ {
		ch := make(chan struct{}, 1)
		p.wake = append(p.wake, ch)
		go p.loop(w, ch)
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

func (p *pool) loop(w int, wake chan struct{}) {
	for {
		select {
		case <-wake:
			pprof.SetGoroutineLabels(p.labels[p.stage])
			p.work(w)
			p.done <- struct{}{}
		case <-p.quit:
			return
		}
	}
}

func (p *pool) work(w int) {
	for {
		lo := int(p.next.Add(int64(p.grain))) - p.grain
		if lo >= p.n {
			return
		}
		p.task.Run(lo, min(lo+p.grain, p.n), w)
	}
}

// For runs t over [0, n) in blocks of grain items on all workers. Small jobs
// (one block) run on the caller alone.
func (p *pool) For(n, grain int, t solver.Task) {
	if n <= 0 {
		return
	}
	grain = max(grain, 1)
	blocks := (n + grain - 1) / grain
	if p.workers == 1 || blocks == 1 {
		t.Run(0, n, 0)
		return
	}
	// Smaller blocks than asked would not pay; larger ones balance worse.
	// Aim for at least 4 blocks per worker when n allows.
	if b := n / (4 * p.workers); b > grain {
		grain = b
		blocks = (n + grain - 1) / grain
	}
	p.task, p.n, p.grain = t, n, grain
	p.next.Store(0)
	helpers := min(p.workers-1, blocks-1)
	for i := 0; i < helpers; i++ {
		p.wake[i] <- struct{}{}
	}
	p.work(0)
	for i := 0; i < helpers; i++ {
		<-p.done
	}
	p.task = nil
}

// close stops the worker goroutines.
func (p *pool) close() { close(p.quit) }
