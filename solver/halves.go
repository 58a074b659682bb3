package solver

// Halves of one group of large islands.
//
// A coloured stage is one job per colour: 18 colour jobs a substep on
// large_pyramid (6 colours, three stages), 72 a step, each a hand-over to
// the other worker and a wait for it. On a host whose two cores answer
// each other in about 1 us (round trip) a hand-over costs a few
// microseconds, about what a colour of tumbler takes to solve on one
// core, so tumbler's coloured solve ran no faster on 2 workers than on the
// caller alone (placement.go), and large_pyramid's only 1.35 times faster.
//
// So a group of at least halvesMinLinks links, when it is the only group,
// is solved in halves: the body rows of its islands (in row order) are cut
// into a first and a second half; the links whose dynamic bodies all lie in
// one half belong to it, and the others form the seam. Within a colour
// no two links share a dynamic body, so each half's and the seam's share
// of a colour is a colour too. Each stage then runs the seam, colour by
// colour, and then the two halves side by side, each worker going through
// all the colours of its half with no wait between them. A stage taken
// backwards (see solveLarge) takes the halves backwards, then the seam
// backwards. That is one hand-over a stage instead of one a colour.
//
// The seam goes first because the cut runs through a row of a pyramid:
// solved after the halves, the seam's supports of the boxes on one side
// of the cut came last in each sweep and those on the other side first,
// and the top of a pyramid of base 30 (465 boxes) swayed 2.8 cm sideways
// as it settled (1.4 cm solved colour by colour; TestPhysicsPyramidsComeToRest
// allows 2). Solved first, it swayed 0.7 cm, and 1.3 cm built right to left
// (1.6 colour by colour).
//
// Row order is the order of the gather, which follows the order in which
// the game made the bodies; the static splits of the narrow phase, the
// contact preparation and the integration follow it too, so each worker
// solves the half whose rows it integrates and whose lanes it mostly
// prepared. Where that order follows space (a pyramid, a pile built row by
// row) the seam is small: 140-200 of large_pyramid's 15 000 links, 80-160
// of tumbler's 5 000 as it turns. Where it does not, the seam is large and
// is solved as before, colour by colour across the workers.
//
// The halves and the seam depend on the rows only, never on the worker
// count, and one worker runs them in the same order: results stay
// bit-identical for any worker count. They do change the order of the
// Gauss-Seidel sweep from colour by colour over the whole group, and so the
// results of the scenes with such a group.

// halvesMinLinks is the link count from which the only group of large
// islands is solved in halves. Tests lower it to halve small islands.
var halvesMinLinks = 1024

// halves is the state of a group solved in halves.
type halves struct {
	colors int    // colours of the only group; 0 when it is not solved in halves
	half   []int8 // per body row of the large islands: 0 or 1
	// The links of each part, colour by colour, and where each colour
	// ends in them, where orderHalves sorts them itself.
	links [3][]int32
	ends  [3][]int32
	// rest[p] lists the rows of half p that no seam or overflow link
	// touches (restRows, once restReady[p]), seamRows the others
	// (listSeamRows); seamRow marks the seamRows from listSeamRows to the
	// next halvesFirst.
	rest      [2][]int32
	restReady [2]bool
	seamRows  []int32
	seamOf    [2][]int32 // seamRows by half
	seamRow   []bool
	ctx       [2]halfCtx
	task      halvesTask
	job       halvesJob // the halves' next job (halves_step.go)
}

// halvesFirst reports whether the large islands are enough to be solved in
// halves, should they form the only group, and if so gives each of their
// body rows its half, for the colouring to list the links by half
// (collectOn) or for orderHalves to sort them.
func (s *Solver) halvesFirst() bool {
	rows := s.largeBodies
	if len(s.largeLinks) < halvesMinLinks || len(rows) < 2 {
		return false
	}
	h := &s.halves
	h.half = resize(h.half, len(s.Sims))
	// The marks of the last halved step come off before the resize, so
	// that none is left past the new length to show up when it grows.
	for _, r := range h.seamRows {
		h.seamRow[r] = false
	}
	h.seamRows = h.seamRows[:0]
	h.seamRow = resize(h.seamRow, len(s.Sims))
	// Row i of rows goes to half 2i/len(rows): 0 below halfRows' cut and
	// 1 from it. Assigned by range, without a division per row: tumbler's
	// halvesFirst went from 7.7-8.0 to 2.3-2.8 us a step, on the caller
	// alone on 2 workers (timed on a slow host).
	m := (len(rows) + 1) / 2
	for _, r := range rows[:m] {
		h.half[r] = 0
	}
	for _, r := range rows[m:] {
		h.half[r] = 1
	}
	return true
}

// linkPart returns the half of link l, or 2 for the seam, from the half of
// each body row.
func linkPart(l *Link, half []int8) int8 {
	a, b := int8(-1), int8(-1)
	if l.KindA == KindDynamic {
		a = half[l.A]
	}
	if l.KindB == KindDynamic {
		b = half[l.B]
	}
	switch {
	case a < 0:
		return b
	case b < 0 || a == b:
		return a
	}
	return 2
}

// orderHalves appends the colours to Order and colorStart: the colours of
// the first half, those of the second, then the seam's, each colour's links
// in link order, two-point links first. With byPart the colouring listed
// them so, and they are copied; otherwise one pass sorts each colour's
// links into the three parts. It reports false, with nothing appended, if
// no link has a colour.
//
// The colouring lists by part where the large islands cannot form groups
// (a single one, or kinematic rows in the last step; BuildIslandsOn), since
// groups need only the colours and the listing by part cost many_pyramids
// (400 islands in groups) 1.5 % a step on 1 worker. Where the guess fails
// (kinematic rows that appeared this step), the pass sorts them here.
func (s *Solver) orderHalves(byPart bool) bool {
	n := s.Coloring.Colors()
	if n == 0 {
		return false
	}
	h := &s.halves
	h.colors = n
	if byPart {
		base := int32(len(s.Order))
		for _, start := range s.Coloring.Start[:3*n] {
			s.colorStart = append(s.colorStart, base+start)
		}
		s.Order = append(s.Order, s.Coloring.List...)
		g := &s.Coloring
		s.listSeamRows(g.List[g.Start[2*n]:g.Start[3*n]])
		return true
	}
	for part := range h.links {
		h.links[part] = h.links[part][:0]
		h.ends[part] = h.ends[part][:0]
	}
	for k := 0; k < n; k++ {
		for _, li := range s.Coloring.Color(k) {
			part := linkPart(&s.Links[li], h.half)
			h.links[part] = append(h.links[part], li)
		}
		for part := range h.links {
			h.ends[part] = append(h.ends[part], int32(len(h.links[part])))
		}
	}
	for part := range h.links {
		start := int32(0)
		for _, end := range h.ends[part] {
			s.colorStart = append(s.colorStart, int32(len(s.Order)))
			s.Order = append(s.Order, h.links[part][start:end]...)
			start = end
		}
	}
	s.listSeamRows(h.links[2])
	return true
}

// listSeamRows sorts the rows of the halves into those a seam or overflow
// link touches (seamRows, integrated by the caller between the seam's
// passes) and the rest of each half (rest, integrated by the half's worker
// in any of its jobs; see halves_step.go).
func (s *Solver) listSeamRows(seam []int32) {
	h := &s.halves
	h.seamRows = h.seamRows[:0]
	mark := func(links []int32) {
		for _, li := range links {
			l := &s.Links[li]
			for _, side := range [2]struct {
				row  int32
				kind Kind
			}{{l.A, l.KindA}, {l.B, l.KindB}} {
				if side.kind == KindDynamic && !h.seamRow[side.row] {
					h.seamRow[side.row] = true
					h.seamRows = append(h.seamRows, side.row)
				}
			}
		}
	}
	mark(seam)
	mark(s.Coloring.Overflow)
	for p := range h.seamOf {
		h.seamOf[p] = h.seamOf[p][:0]
	}
	for _, r := range h.seamRows {
		h.seamOf[h.half[r]] = append(h.seamOf[h.half[r]], r)
	}
	// The rest lists are left to the halves' own workers (restRows); the
	// marks stay until the next halvesFirst.
	h.restReady = [2]bool{}
}

// restRows returns the rows of half p that no seam or overflow link
// touches, listing them on the first call of the step. Each half's list is
// made by the goroutine that solves that half, beside the other half's:
// with both listed by the caller ahead of the jobs, tumbler's orderHalves
// took 14-16 us a step on 2 workers, 7-8 without them (timed on a slow
// host). The list depends only on the rows and the marks, not on who
// makes it.
func (s *Solver) restRows(p int) []int32 {
	h := &s.halves
	if !h.restReady[p] {
		h.rest[p] = h.rest[p][:0]
		for _, r := range s.halfRows(p) {
			if !h.seamRow[r] {
				h.rest[p] = append(h.rest[p], r)
			}
		}
		h.restReady[p] = true
	}
	return h.rest[p]
}

// halfRows returns the rows of half p: the first or the second half of the
// large islands' rows, as halvesFirst cut them.
func (s *Solver) halfRows(p int) []int32 {
	rows := s.largeBodies
	m := (len(rows) + 1) / 2 // the first i with 2*i/len(rows) == 1
	if p == 0 {
		return rows[:m]
	}
	return rows[m:]
}

// colorRange returns the contacts (or, wide, the blocks) of colour entry c.
func (s *Solver) colorRange(c int) (base, n int) {
	if s.wide {
		return int(s.blockStart[c]), int(s.blockStart[c+1] - s.blockStart[c])
	}
	return int(s.colorStart[c]), int(s.colorStart[c+1] - s.colorStart[c])
}

// halfCtx is the stage of one half, on cache lines of its own: each
// half's worker writes its base for every colour.
type halfCtx struct {
	t stageTask
	_ [64]byte
}
