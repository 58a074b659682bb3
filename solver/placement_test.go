package solver

import (
	"testing"
	"time"
)

// TestPlacementTrials drives the placement with made-up solve times: it
// must run each trial's second half in the other placement, take that one
// only when it is clearly faster, try again after placePeriod solves or when
// the contact count changes enough in the direction that may overturn the
// choice (growing on the caller alone, shrinking on the workers), and never
// leave the workers of a one-worker executor.
func TestPlacementTrials(t *testing.T) {
	two := parallel{2}
	// solve runs one solve of n contacts, taking perContact ns a contact
	// across the workers and onCaller ns on the caller alone, and returns
	// whether it ran on the caller alone.
	solve := func(pl *placement, n int, perContact, onCaller float64) bool {
		ex := pl.executor(two, n)
		_, alone := ex.(Serial)
		if alone != pl.last {
			t.Fatalf("executor %T but last = %v", ex, pl.last)
		}
		ns := perContact
		if alone {
			ns = onCaller
		}
		pl.record(two, time.Duration(ns*float64(n)), n)
		return alone
	}

	var pl placement
	var alone []bool
	for range 2 * placeTrial {
		alone = append(alone, solve(&pl, 1000, 100, 95))
	}
	for i, a := range alone {
		if want := i >= placeTrial; a != want {
			t.Fatalf("solve %d of the first trial: on the caller alone = %v, want %v", i, a, want)
		}
	}
	if pl.serial {
		t.Fatal("took the caller alone at 95 ns a contact against 100 on the workers (inside the margin)")
	}

	// The host gets slower at handing over: the next trial, placePeriod
	// solves after the first, moves the solve to the caller.
	for i := 2 * placeTrial; i < placePeriod; i++ {
		if solve(&pl, 1000, 150, 95) {
			t.Fatalf("solve %d, between trials, ran on the caller alone", i)
		}
	}
	for range 2 * placeTrial {
		solve(&pl, 1000, 150, 95)
	}
	if !pl.serial {
		t.Fatal("kept the workers at 150 ns a contact against 95 on the caller alone")
	}
	if !solve(&pl, 1000, 150, 95) {
		t.Fatal("the solve after the trial did not run on the caller alone")
	}

	// The island grows, and the workers gain again: a count 1.25 times the
	// trial's starts a new trial at once, whose second half is on the
	// workers, and they win it back.
	for i := range 2 * placeTrial {
		a := solve(&pl, 1300, 60, 95)
		if want := i < placeTrial; a != want {
			t.Fatalf("solve %d of the trial on growth: on the caller alone = %v, want %v", i, a, want)
		}
	}
	if pl.serial {
		t.Fatal("kept the caller alone at 95 ns a contact against 60 on the workers")
	}

	// Growing further only favours the workers: no trial, however much
	// it grows before the next period.
	for i := range 20 {
		if solve(&pl, 1300<<(i/4), 60, 95) {
			t.Fatalf("solve %d of the growth on the workers ran on the caller alone", i)
		}
	}
	// Shrinking may favour the caller alone: a count 1.25 times smaller
	// than the trial's starts a trial at once.
	for i := range 2 * placeTrial {
		a := solve(&pl, 1000, 60, 95)
		if want := i >= placeTrial; a != want {
			t.Fatalf("solve %d of the trial on shrinking: on the caller alone = %v, want %v", i, a, want)
		}
	}
	if pl.serial {
		t.Fatal("took the caller alone at 95 ns a contact against 60 on the workers")
	}
	// On the caller alone, shrinking starts no trial.
	pl.serial = true
	for i := range 20 {
		if !solve(&pl, 1000>>(i/4), 60, 95) {
			t.Fatalf("solve %d of the shrinking on the caller alone ran on the workers", i)
		}
	}

	// A one-worker executor is never replaced and never timed.
	var one placement
	for range placePeriod {
		ex := one.executor(Serial{}, 1000)
		one.record(Serial{}, time.Millisecond, 1000)
		if _, ok := ex.(Serial); !ok || one.last || one.step != 0 {
			t.Fatalf("one worker: executor %T, last %v, step %d", ex, one.last, one.step)
		}
	}
}
