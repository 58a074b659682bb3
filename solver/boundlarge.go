package solver

import "github.com/tumble2d/tumble/components"

// The bounds of the coloured islands run in chunks, on all workers.
//
// Each pass of the bounds (the energies at the start, after the substeps,
// the blend) walks every body row of the island. Run per island, one worker
// walked large_pyramid's 5 051 rows while the other waited, and the rows it
// read had last been written by both: on 2 workers at a 1 us round trip the
// solve stage took 3.2-3.7 ms against 3.0 without the bound. So the rows are
// cut into chunks of boundRowChunk (and the links, for the frame, into
// chunks of boundLinkChunk) that never straddle two islands, the chunks are
// split among the workers statically, in row order, as the integration
// stages split the rows, and each chunk writes its partial sums to its own
// slot. The caller adds the slots of each island in chunk order, so the
// sums, and the results, are the same for any worker count.

const (
	boundRowChunk  = 256
	boundLinkChunk = 1024
)

// boundChunk is a chunk of the large island large[li]: rows
// largeBodies[lo:hi], or links Islands.ContactList[lo:hi].
type boundChunk struct {
	li, lo, hi int32
}

// chunkSums are the partial sums of a row chunk, or the frame of a link
// chunk.
type chunkSums struct {
	k0, k, w, a, b float64 // a and b: the A and B of stepSums
	u              components.Vec2
	push           float64 // the push-out energy of a link chunk's contacts
	anchored, ok   bool
}

// chunkLarge cuts the large islands into chunks.
func (s *Solver) chunkLarge() {
	s.rowChunks, s.linkChunks = s.rowChunks[:0], s.linkChunks[:0]
	is := &s.Islands
	for li := range s.large {
		l := &s.large[li]
		l.rowChunks[0] = int32(len(s.rowChunks))
		for lo := l.start; lo < l.end; lo += boundRowChunk {
			s.rowChunks = append(s.rowChunks, boundChunk{li: int32(li), lo: lo, hi: min(lo+boundRowChunk, l.end)})
		}
		l.rowChunks[1] = int32(len(s.rowChunks))
		l.linkChunks[0] = int32(len(s.linkChunks))
		start, end := is.ContactStart[l.island], is.ContactStart[l.island+1]
		for lo := start; lo < end; lo += boundLinkChunk {
			s.linkChunks = append(s.linkChunks, boundChunk{li: int32(li), lo: lo, hi: min(lo+boundLinkChunk, end)})
		}
		l.linkChunks[1] = int32(len(s.linkChunks))
	}
	s.rowSums = resize(s.rowSums, len(s.rowChunks))
	s.linkSums = resize(s.linkSums, len(s.linkChunks))
}

// boundChunks runs the current bound stage (modeBoundFrame to
// modeBoundApply) over chunks [lo, hi). The start of the step is kept in
// the same pass as the first substep's velocity integration, which walks
// the same rows anyway.
func (s *Solver) boundChunks(mode, lo, hi int) {
	for c := lo; c < hi; c++ {
		if mode == modeBoundFrame {
			ch, sum := &s.linkChunks[c], &s.linkSums[c]
			links := s.Islands.ContactList[ch.lo:ch.hi]
			sum.u, sum.anchored, sum.ok = s.islandFrame(links)
			sum.push = 0
			for _, l := range links {
				sum.push += s.push[l]
			}
			continue
		}
		ch, sum := &s.rowChunks[c], &s.rowSums[c]
		l := &s.large[ch.li]
		rows := s.largeBodies[ch.lo:ch.hi]
		switch mode {
		case modeBoundStart:
			if !l.skip {
				sum.k0 = s.keepStart(rows, l.frame)
			}
			integrateVelocities(&s.p, s.Bodies, s.Sims, s.largeBodies, int(ch.lo), int(ch.hi))
		case modeBoundSubsteps:
			if !l.skip {
				sum.k, sum.w, sum.a, sum.b = s.stepSums(rows, l.frame)
			}
		case modeBoundApply:
			if l.limited {
				s.blendApply(rows, s.start, l.a)
			}
		}
	}
}

// largeFrames folds the frames of the link chunks of each large island of
// g, in order, as islandFrame folds links (their push-out energies are
// added in largeLimits, when needed).
func (s *Solver) largeFrames(g *largeGroup) {
	for li := g.islands[0]; li < g.islands[1]; li++ {
		l := &s.large[li]
		u, anchored, ok := components.Vec2{}, false, true
		for _, sum := range s.linkSums[l.linkChunks[0]:l.linkChunks[1]] {
			switch {
			case !sum.ok:
				ok = false
			case sum.anchored && anchored && sum.u != u:
				ok = false
			case sum.anchored:
				u, anchored = sum.u, true
			}
		}
		// A joint's spring or motor gives energy the bound would take
		// back (see solveIsland).
		joints := s.Islands.JointStart[l.island+1] > s.Islands.JointStart[l.island]
		l.frame, l.anchored, l.skip = u, anchored, !ok || joints
	}
}

// largeLimits adds up the sums of each large island of g after the
// substeps and decides its step bound (stepFactor); the apply stage then
// scales back the islands it marks. It reports whether any island is
// marked.
func (s *Solver) largeLimits(g *largeGroup) bool {
	marked := false
	for li := g.islands[0]; li < g.islands[1]; li++ {
		l := &s.large[li]
		l.limited = false
		if l.skip {
			continue
		}
		var k, A, B float64
		l.k0, l.w = 0, 0
		for _, sum := range s.rowSums[l.rowChunks[0]:l.rowChunks[1]] {
			l.k0 += sum.k0
			k += sum.k
			l.w += sum.w
			A += sum.a
			B += sum.b
		}
		l.kb = k
		limit := l.k0 + max(l.w, 0)
		if !(k > limit*(1+energyTol)) {
			continue
		}
		for _, sum := range s.linkSums[l.linkChunks[0]:l.linkChunks[1]] {
			limit += sum.push
		}
		l.a, l.kb, l.limited = s.stepFactor(s.largeBodies[l.start:l.end], l.frame, l.anchored, limit, l.k0, k, A, B)
		marked = marked || l.limited
	}
	return marked
}

// boundFrames runs the first job of group t.g's substeps: the frames of its
// large islands' bound (modeBoundFrame), with the check of its wide lanes
// (checkLanes). It reports false if a lane is bad: nothing is solved then,
// and Solve panics on its caller.
func (s *Solver) boundFrames(ex Executor, t *stageTask) bool {
	g := t.g
	t.mode, t.base = modeBoundFrame, int(g.linkChunks[0])
	ex.For(int(g.linkChunks[1]-g.linkChunks[0]), HeavyItems, t)
	if s.badLane.Load() {
		return false
	}
	s.largeFrames(g)
	return true
}
