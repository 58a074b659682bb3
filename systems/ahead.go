package systems

import "github.com/tumble2d/tumble/internal/prefetch"

// Rows written ahead of use. On 2 workers or more, a loop that writes rows
// which the other worker read or wrote in the step before (the gather's
// body rows, the narrow phase's pair rows, the contact cache's entries)
// takes their cache lines for writing some rows ahead of the one it writes
// (internal/prefetch), rather than waiting at each line for the other core
// to give it up. On one worker the lines are the caller's own, and the
// loops do not prefetch.
const (
	aheadRows = 16 // how far ahead of the row being written
	aheadRun  = 8  // rows per prefetch, one call every aheadRun rows
)

// ahead reports whether the loops prefetch the rows they write (see above).
func (p *Physics) ahead() bool { return p.pool.workers > 1 }

// prefetchGather takes the gather's rows i to i+aheadRun-1 for writing.
func (p *Physics) prefetchGather(i int) {
	prefetch.WriteRows(p.ents, i, aheadRun)
	prefetch.WriteRows(p.motion, i, aheadRun)
	prefetch.WriteRows(p.proxies, i, aheadRun)
	prefetch.WriteRows(p.mats, i, aheadRun)
	prefetch.WriteRows(p.aabbs, i, aheadRun)
	prefetch.WriteRows(p.reach, i, aheadRun)
	prefetch.WriteRows(p.s.Bodies, i, aheadRun)
	prefetch.WriteRows(p.s.Sims, i, aheadRun)
}

// prefetchPairs takes the narrow phase's rows of pairs i to i+aheadRun-1,
// and its packed links from n, for writing, within a block ending at hi.
func (p *Physics) prefetchPairs(i, n, hi int) {
	if i+aheadRun <= hi {
		prefetch.WriteRows(p.pairFlags, i, aheadRun)
		prefetch.WriteRows(p.manifolds, i, aheadRun)
		prefetch.WriteRows(p.pairInfo, i, aheadRun)
		prefetch.WriteRows(p.pairEnts, i, aheadRun)
	}
	if n+aheadRun <= hi {
		prefetch.WriteRows(p.touching, n, aheadRun)
		prefetch.WriteRows(p.s.Links, n, aheadRun)
	}
}

// prefetchEntries takes the contact cache's entries k to k+aheadRun-1 for
// writing, within a block ending at hi (the preparation and the store).
func prefetchEntries(entries []cachedContact, k, hi int) {
	if k+aheadRun <= hi {
		prefetch.WriteRows(entries, k, aheadRun)
	}
}
