package main

import (
	"runtime"
	"slices"
	"sync/atomic"
	"time"
)

// coreRoundTrip measures how long two cores take to pass a cache line there
// and back: two goroutines, each on its own OS thread, bounce a counter
// through two padded words. It is the price of every hand-over between the
// workers (a job announced, a body row written on one core and read on the
// other), so it decides what a second worker can gain. On the 2-vCPU VMs
// Tumble was measured on it was either about 200 ns (large_pyramid then ran
// 1.7 times faster on 2 workers) or, for stretches of minutes, about 1 us
// (1.0-1.15 times), while work that shares nothing still ran twice as fast.
//
// It returns the median of five batches of up to 2000 round trips, each
// batch capped at 20 ms (two threads sharing one CPU take a time slice per
// trip), and 0 when GOMAXPROCS is 1.
func coreRoundTrip() time.Duration {
	if runtime.GOMAXPROCS(0) < 2 {
		return 0
	}
	type line struct {
		v atomic.Int64
		_ [56]byte
	}
	var ping, pong line
	var stop atomic.Bool
	done := make(chan struct{})
	go func() {
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		defer close(done)
		for want := int64(1); ; want++ {
			for ping.v.Load() < want {
				if stop.Load() {
					return
				}
			}
			pong.v.Store(want)
		}
	}()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	var batches []time.Duration
	n := int64(0)
	for range 5 {
		start := time.Now()
		trips := 0
		for ; trips < 2000 && (trips&7 != 0 || time.Since(start) < 20*time.Millisecond); trips++ {
			n++
			ping.v.Store(n)
			for pong.v.Load() < n {
			}
		}
		batches = append(batches, time.Since(start)/time.Duration(trips))
	}
	stop.Store(true)
	<-done
	slices.Sort(batches)
	return batches[len(batches)/2]
}
