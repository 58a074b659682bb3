package solver

import "slices"

// Groups of large islands.
//
// Run colour by colour over all large islands at once, every stage of the
// coloured solve streams all their body rows and wide blocks through the
// caches: on many_pyramids (400 pyramids of 145 contacts, 17 MB of
// blocks) each colour sweep missed them all again. So consecutive large
// islands are grouped up to about groupContacts contacts, and each group
// runs the whole coloured pipeline (the substeps, the step bound, the
// restitution) before the next, its rows and blocks staying in the cache of
// one core. With several groups, whole groups are handed to the workers,
// each group run serially: no barrier per colour.
//
// The results do not change: islands share no dynamic body, each contact's
// arithmetic reads only its own island's rows, a link's colour is the one
// its island alone gives it (Coloring.colorLinks), and the wide kernels
// give the same bits whatever the grouping of lanes. Each island's bound
// sums are added over the same chunks in the same order.
//
// Kinematic rows join no island, so two groups may read the same one, and
// each stage writes the kinematic rows' delta pose for its own time
// (setKinematic): large islands that touch a kinematic row are run as one
// group, as is a set of groups whose largest would hold more than a
// 1/groupSpread share of the contacts, which one worker would then solve
// while the others wait.

const (
	// groupContacts is the contact count up to which consecutive large
	// islands are grouped: about 0.3 MB of wide blocks and their rows. On
	// many_pyramids (2 cores of an AMD EPYC) Solve took 7.9-8.0 ms on one
	// worker with it, 8.4-9.0 with 512, 2 048, 4 096 or 8 192, and 10.9-11.1
	// in one group of all islands.
	groupContacts = 1024
	// groupSpread: the groups are used only when the largest holds at most
	// this share of the coloured contacts.
	groupSpread = 4
)

// noGroups makes the solver run all large islands as one group; tests set
// it to check that the groups change no result.
var noGroups = false

// largeGroup is a run of consecutive large islands solved together.
type largeGroup struct {
	islands    [2]int32 // large[islands[0]:islands[1]]
	rows       [2]int32 // largeBodies[rows[0]:rows[1]]
	rowChunks  [2]int32 // its row chunks (boundlarge.go)
	linkChunks [2]int32 // its link chunks
	links      [2]int32 // largeLinks[links[0]:links[1]]
	// overflow is the solver position of its overflow contacts, which end
	// where its first colour starts: colour k is [colorStart[c],
	// colorStart[c+1]) with c = colors[0]+k, for c+1 < colors[1].
	overflow int32
	colors   [2]int32
}

// groupCtx is the scratch of a worker running whole groups.
type groupCtx struct {
	t stageTask
	_ [64]byte // no cache line shared with the next worker's
}

// groupsTask runs whole groups, each on one worker.
type groupsTask struct{ s *Solver }

func (t *groupsTask) Run(lo, hi, worker int) {
	s := t.s
	c := &s.groupCtx[worker]
	for g := lo; g < hi; g++ {
		c.t.g = &s.groups[g]
		s.solveLarge(Serial{}, &c.t)
	}
}

// solveGroups runs the groups of large islands on ex, whole groups per
// worker.
func (s *Solver) solveGroups(ex Executor) {
	s.groupCtx = resize(s.groupCtx, ex.Workers())
	for i := range s.groupCtx {
		c := &s.groupCtx[i]
		c.t = stageTask{s: s}
	}
	s.groupsTask.s = s
	ex.For(len(s.groups), 1, &s.groupsTask)
}

// wholeGroup returns the group of all large islands, ordered as one: the
// overflow from largeStart, the colours from colorStart[0].
func (s *Solver) wholeGroup() largeGroup {
	n := int32(len(s.large))
	return largeGroup{islands: [2]int32{0, n}, rows: [2]int32{0, int32(len(s.largeBodies))},
		rowChunks: [2]int32{0, int32(len(s.rowChunks))}, linkChunks: [2]int32{0, int32(len(s.linkChunks))},
		links: [2]int32{0, int32(len(s.largeLinks))}, overflow: s.largeStart,
		colors: [2]int32{0, int32(len(s.colorStart))}}
}

// groupLarge cuts the large islands into groups of consecutive islands of
// up to groupContacts contacts and reports whether they are to be used
// (see the top of this file); orderGroups then lays them out.
func (s *Solver) groupLarge() bool {
	s.groups = s.groups[:0]
	if noGroups || len(s.large) < 2 || len(s.Coloring.Kinematic) > 0 {
		return false
	}
	is := &s.Islands
	var g largeGroup
	links, biggest := int32(0), int32(0)
	for li := range s.large {
		l := &s.large[li]
		n := is.ContactStart[l.island+1] - is.ContactStart[l.island]
		if g.islands[1] > g.islands[0] && links+n > groupContacts {
			s.groups = append(s.groups, g)
			biggest = max(biggest, links)
			g = largeGroup{islands: [2]int32{int32(li), int32(li)}, links: [2]int32{g.links[1], g.links[1]}}
			links = 0
		}
		if g.islands[1] == g.islands[0] {
			g.rows[0], g.rowChunks[0], g.linkChunks[0] = l.start, l.rowChunks[0], l.linkChunks[0]
		}
		g.islands[1] = int32(li + 1)
		g.rows[1], g.rowChunks[1], g.linkChunks[1] = l.end, l.rowChunks[1], l.linkChunks[1]
		g.links[1] += n
		links += n
	}
	s.groups = append(s.groups, g)
	biggest = max(biggest, links)
	if len(s.groups) < 2 || groupSpread*int(biggest) > len(s.largeLinks) {
		s.groups = s.groups[:0]
		return false
	}
	return true
}

// orderGroups appends the contacts of the groups to Order, group by
// group: each group's overflow, then its colours, each colour's two-point
// links first, all in link order, as the colouring of its islands alone
// lists them. It reads the bucket (colour and point count) that
// Coloring.collectOn gave each large link, and fills colorStart and each
// group's overflow and colors.
func (s *Solver) orderGroups() {
	bucket := s.Coloring.bucket
	s.Order = slices.Grow(s.Order, len(s.largeLinks))
	for gi := range s.groups {
		g := &s.groups[gi]
		links := s.largeLinks[g.links[0]:g.links[1]]
		buckets := bucket[g.links[0]:g.links[1]]
		g.overflow = int32(len(s.Order))
		var next [2 * maxColors]int32
		colors := 0
		for j, li := range links {
			b := buckets[j]
			if b == noBucket {
				s.Order = append(s.Order, li)
				continue
			}
			b %= 2 * maxColors // the half, had collectOn listed the links by half
			next[b]++
			colors = max(colors, int(b)/2+1)
		}
		pos := int32(len(s.Order))
		g.colors[0] = int32(len(s.colorStart))
		for b := 0; b < 2*colors; b++ {
			if b&1 == 0 {
				s.colorStart = append(s.colorStart, pos)
			}
			pos, next[b] = pos+next[b], pos
		}
		s.colorStart = append(s.colorStart, pos)
		g.colors[1] = int32(len(s.colorStart))
		s.Order = s.Order[:pos]
		for j, li := range links {
			if b := buckets[j]; b != noBucket {
				b %= 2 * maxColors
				s.Order[next[b]] = li
				next[b]++
			}
		}
	}
}
