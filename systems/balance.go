package systems

// The split of a recurring static job between the workers.
//
// The narrow phase, the contact preparation and the impulse store each run
// once a tick as a static split: each worker takes the same stretch of the
// pairs every tick, so the rows it writes stay in its core's cache. An
// equal split assumes the workers are equally fast on their stretches, and
// they are not: the caller's gather has just written the body rows and
// proxies that both read, and where the coloured contacts are solved on the
// caller alone (solver/placement.go) it has also written their lanes, so
// the helper's reads come from the other core. Where the host's cores
// answer each other in about 1 us (round trip; see docs/performance.md), tumbler's
// narrow phase on 2 workers took 0.47 ms on the caller and 0.80 on the
// helper for equal halves, and the caller waited 0.34 ms for it; the
// helper's half of the preparation and store took 0.71 ms against the
// caller's 0.47 (busy timers, not committed).
//
// So each of these jobs keeps a share per worker, and after every job moves
// the shares a quarter of the way towards the split that would have ended
// the job at the same time on every worker, from the items per nanosecond
// each worker ran its own pieces at. On tumbler the caller's share settles
// at 0.6-0.65. Measured at 1 us, with simulations of both builds run side
// by side in one process, 10 ticks each in turn (so that the host's bursts
// of load fall on both), in five runs on 2 workers: tumbler took 2.36-2.76
// ms/step against 2.62-3.33, 9-18 % less in each run; large_pyramid,
// circle_rain and mixed_pile 0-10 % less. Smash took 0-6 % less in six
// such runs, many_pyramids from 4 % more to 6 % less in five.
//
// Which worker runs an item never changes the result (each writes only its
// items' slots, and the fold and the sums go by item), so the shares change
// only the speed: results stay bit-identical for any worker count, whatever
// the timings.

const (
	// balanceRate is the fraction of the way from the shares to the
	// measured balance taken after each job: one job's timing is noisy (a
	// worker descheduled in its slice), so the shares follow the run of
	// jobs: tumbler's went from 0.5 to 0.63 in three ticks, then stayed
	// within a few hundredths of it.
	balanceRate = 0.25
	// balanceFloor keeps every worker's share at least balanceFloor/workers,
	// so that a worker slowed once still runs enough items to be timed.
	balanceFloor = 0.2
)

// balance holds the shares of one recurring static job (pool.run).
type balance struct {
	share []float64 // per worker, summing to 1; equal until the first job
	rate  []float64 // scratch: items per ns of each worker in the last job
}

// split sets p.bounds to the slices of n items by b's shares and returns
// b, to be set as the pool's current balance.
func (b *balance) split(p *pool, n int) *balance {
	w := p.workers
	if len(b.share) != w {
		b.share, b.rate = make([]float64, w), make([]float64, w)
		for i := range b.share {
			b.share[i] = 1 / float64(w)
		}
	}
	p.bounds = resize(p.bounds, w+1)
	p.bounds[0], p.bounds[w] = 0, n
	cum := 0.0
	for i := 1; i < w; i++ {
		cum += b.share[i-1]
		p.bounds[i] = min(n, max(p.bounds[i-1], int(cum*float64(n)+0.5)))
	}
	return b
}

// adapt moves the shares towards the rates at which the workers ran their
// own pieces of job j: the caller's items and ns, each helper's from its
// record. The shares of the workers measured (those that ran some of their
// own items in job j; a helper that came late, and whose pieces were taken
// from it, is not) are shared out again among them by their rates; the
// others keep theirs.
func (b *balance) adapt(p *pool, j uint64, items, ns int64) {
	held, sum, measured := 0.0, 0.0, 0
	for w := range b.rate {
		if w > 0 {
			h := &p.helpers[w-1]
			items, ns = h.items, h.ns
			if h.job != j {
				items = 0
			}
		}
		b.rate[w] = 0
		if items > 0 && ns > 0 {
			b.rate[w] = float64(items) / float64(ns)
			held += b.share[w]
			sum += b.rate[w]
			measured++
		}
	}
	if measured < 2 {
		return
	}
	// The new shares sum to 1, as the old ones do: the measured workers'
	// targets add up to what they held. Those below the floor are raised
	// to it, and the others give up the difference in proportion to what
	// they hold above it (the floors add up to balanceFloor < 1, so they
	// hold enough).
	floor := balanceFloor / float64(len(b.share))
	short, above := 0.0, 0.0
	for w := range b.share {
		s := b.share[w]
		if b.rate[w] > 0 {
			s += balanceRate * (held*b.rate[w]/sum - s)
		}
		if s < floor {
			short += floor - s
			s = floor
		} else {
			above += s - floor
		}
		b.share[w] = s
	}
	if short > 0 {
		for w, s := range b.share {
			if s > floor {
				b.share[w] = s - short*(s-floor)/above
			}
		}
	}
}
