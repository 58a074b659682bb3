package solver

import "time"

// Placement of the coloured solve. Colouring spreads a large island over
// every worker, at the price of a hand-over and a wait per colour and stage
// (about 120 a step on tumbler) and of body rows that move between cores
// from one colour to the next. On a host whose cores answer each other in
// about 200 ns that pays (tumbler's solve: 1.05 ms on one worker, 0.67 on
// two). Where they answer in about 1 us the same stages took 1.46 ms on two
// workers and 1.15 ms on the caller alone, with the helper idle beside it;
// large_pyramid, with four times the contacts per colour, still gained
// (4.05 ms alone against 2.8-3.05 on two). Neither the island sizes nor the
// worker count tell the two apart, so the solver times both.
//
// When the large islands run in groups (group.go), all workers take whole
// groups, with no wait per colour; on the caller alone it runs them one
// after the other. The timing chooses between the two as before.
//
// Which goroutine solves a block of a colour never changes the result, so
// the choice changes only the speed: results stay bit-identical for any
// worker count.
const (
	// placeTrial solves are timed in each placement per trial: the current
	// one, then the other. The first solve in the other placement pays for
	// moving the rows and is not counted.
	placeTrial = 4
	// placePeriod is the number of solves from one trial to the next (4 s
	// at 60 Hz): hosts change state over minutes, and a trial solves 4
	// steps in the placement that is likely slower.
	placePeriod = 240
	// placeMargin: the other placement must be this much faster (time
	// ratio) to be taken, so that noise between close placements does not
	// flip it back and forth.
	placeMargin = 0.9
	// placeGrowth: a coloured contact count this many times the one of the
	// last trial, on the caller alone, or this many times smaller, on the
	// workers, starts a new trial at once. The work per colour decides
	// which placement wins: circle_rain's rain of 10 000 circles, timed
	// while its pile was small, was solved on the caller alone for 240 steps
	// while it grew, 0.7 ms a step slower. Growth on the workers (or
	// shrinking on the caller) cannot overturn the choice: trying the other
	// placement then took circle_rain's pile to the caller alone in 43 of
	// its 299 steps on 2 workers, against 15 without those trials.
	placeGrowth = 1.25
)

// placement chooses, by timing, between solving the coloured large
// islands across all workers and on the caller alone.
type placement struct {
	serial     bool    // the current choice: on the caller alone
	step       int     // timed solves, modulo placePeriod
	cur, other float64 // fastest ns per coloured contact of this trial
	n          int     // coloured contacts in the last solve of the last trial
	last       bool    // the last solve ran on the caller alone
}

// executor returns the executor for a solve of n coloured contacts.
func (pl *placement) executor(ex Executor, n int) Executor {
	// More contacts a colour only favour sharing it, and fewer only the
	// caller alone: a change of size starts a trial only when it may
	// overturn the current choice.
	if pl.step >= 2*placeTrial && (pl.serial && float64(n) > placeGrowth*float64(pl.n) ||
		!pl.serial && placeGrowth*float64(n) < float64(pl.n)) {
		pl.step = 0
	}
	serial := pl.serial
	if ex.Workers() > 1 && pl.step >= placeTrial && pl.step < 2*placeTrial {
		serial = !serial
	}
	pl.last = serial && ex.Workers() > 1
	if pl.last {
		return Serial{}
	}
	return ex
}

// record takes the time d of a coloured solve of n contacts run on the
// executor that executor returned for ex, and ends a trial once both
// placements are timed.
func (pl *placement) record(ex Executor, d time.Duration, n int) {
	if ex.Workers() < 2 || n == 0 {
		return
	}
	ns := float64(d) / float64(n)
	switch {
	case pl.step == 0:
		pl.cur = ns
	case pl.step < placeTrial:
		pl.cur = min(pl.cur, ns)
	case pl.step == placeTrial+1:
		pl.other = ns
	case pl.step > placeTrial+1 && pl.step < 2*placeTrial:
		pl.other = min(pl.other, ns)
	}
	if pl.step == 2*placeTrial-1 {
		pl.n = n
		if pl.other < placeMargin*pl.cur {
			pl.serial = !pl.serial
		}
	}
	pl.step = (pl.step + 1) % placePeriod
}
