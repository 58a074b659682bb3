package solver

import "math/bits"

// maxColors is the number of graph colours; contacts that find no free
// colour go to the overflow list, solved on one worker (as in Box2D v3
// constraint_graph.c, which uses 24 colours and an overflow bucket).
const maxColors = 64

// Coloring assigns the links (contacts) of large islands to colours so that no two
// contacts of a colour share a dynamic body: the contacts of one colour can
// be solved in any order, on any worker, with bit-identical results. Colour k
// holds List[Start[k]:Start[k+1]], its two-point links first; Overflow holds
// the rest. Listed by part (collectOn with halves), List holds the colours
// of each part in turn: entry p*Colors()+k, colour k of part p, is
// List[Start[e]:Start[e+1]].
type Coloring struct {
	Start    []int32
	List     []int32
	Overflow []int32
	lists    int // 1, or 3 when listed by part
	// Kinematic lists the kinematic rows the contacts touch, once per
	// contact side (so with repeats), in list order.
	Kinematic []int32

	used      []uint64 // per body row: colours taken
	linkColor []int8   // per link: its colour, -1 for none
	bucket    []uint16 // per list entry: its bucket (collectOn)
	parts     []collectPart
	task      collectTask
}

// Colors returns the number of colours in use.
func (g *Coloring) Colors() int {
	if g.lists == 0 {
		return len(g.Start) - 1
	}
	return (len(g.Start) - 1) / g.lists
}

// Color returns the contacts of colour k (of entry k, listed by part).
func (g *Coloring) Color(k int) []int32 { return g.List[g.Start[k]:g.Start[k+1]] }

// Build colours the given contacts greedily in list order (first free
// colour), which depends only on the inputs. Static and kinematic sides take
// no colour: they are never written.
func (g *Coloring) Build(links []Link, list []int32, numBodies int) {
	g.colorLinks(links, list, numBodies)
	g.collect(links, list)
}

// colorLinks gives each link of list (all links with a dynamic side when
// list is nil), in list order, the first colour none of its dynamic bodies
// has yet, recording it in linkColor (-1: none free, the overflow).
//
// A link's colour depends only on the links before it that share a dynamic
// body, and those are in its own island: colouring all links in link order
// gives each link of a large island the colour that colouring that island's
// links alone (ascending, as Islands lists them) gives it. So the colours of
// all links can be computed while the islands are still being found.
func (g *Coloring) colorLinks(links []Link, list []int32, numBodies int) {
	g.used = resize(g.used, numBodies)
	g.linkColor = resize(g.linkColor, len(links))
	if list == nil {
		clear(g.used)
		for ci := range links {
			g.colorLink(links, int32(ci))
		}
		return
	}
	for _, ci := range list {
		c := &links[ci]
		if c.KindA == KindDynamic {
			g.used[c.A] = 0
		}
		if c.KindB == KindDynamic {
			g.used[c.B] = 0
		}
	}
	for _, ci := range list {
		g.colorLink(links, ci)
	}
}

func (g *Coloring) colorLink(links []Link, ci int32) {
	c := &links[ci]
	var mask uint64
	switch {
	case c.KindA == KindDynamic && c.KindB == KindDynamic:
		mask = g.used[c.A] | g.used[c.B]
	case c.KindA == KindDynamic:
		mask = g.used[c.A]
	case c.KindB == KindDynamic:
		mask = g.used[c.B]
	default:
		g.linkColor[ci] = -1 // not solved, never listed
		return
	}
	if mask == ^uint64(0) {
		g.linkColor[ci] = -1
		return
	}
	col := bits.TrailingZeros64(^mask)
	bit := uint64(1) << col
	if c.KindA == KindDynamic {
		g.used[c.A] |= bit
	}
	if c.KindB == KindDynamic {
		g.used[c.B] |= bit
	}
	g.linkColor[ci] = int8(col)
}

// collect lists the links of list by the colours colorLinks gave them, the
// overflow and the kinematic rows, on the calling goroutine (collectOn).
func (g *Coloring) collect(links []Link, list []int32) { g.collectOn(Serial{}, links, list, nil) }

// collectParallelMin is the shortest list collectOn splits between workers:
// below it, a second job costs more than half the list.
const collectParallelMin = 256

// collectOn lists the links of list by the colours colorLinks gave them, the
// overflow and the kinematic rows, all in list order. Within a colour the
// two-point links come first, then the one-point links (see Link.Points),
// each in list order: the solver order the wide layout needs, so
// BuildIslands copies whole colours.
//
// It is a counting sort into buckets (2k: colour k's two-point links, 2k+1
// its one-point links), run on ex in parts of the list: each part counts its
// buckets, the caller turns the counts into each part's first place in each
// bucket, and each part places its links. The result is the same for any
// number of parts. On tumbler it was the largest step of the islands stage
// that ran on the caller alone (0.05 ms of 0.12 on 2 workers).
//
// With half (the half of each body row, halves.go), the links are listed by
// part first: the first half's, the second's, then the seam's (linkPart),
// each colour by colour, in the layout of a group solved in halves. Sorting
// them into the parts afterwards, on the caller, took large_pyramid 0.05 ms
// a step.
func (g *Coloring) collectOn(ex Executor, links []Link, list []int32, half []int8) {
	n := len(list)
	g.lists = 1
	if half != nil {
		g.lists = 3
	}
	parts := 1
	if n >= collectParallelMin {
		parts = ex.Workers()
	}
	g.parts = resize(g.parts, parts)
	for h := range g.parts {
		g.parts[h].lo, g.parts[h].hi = h*n/parts, (h+1)*n/parts
	}
	g.bucket = resize(g.bucket, n)
	g.task = collectTask{g: g, links: links, list: list, half: half}
	ex.For(parts, 1, &g.task)

	colors := 0
	for h := range g.parts {
		for part := 0; part < g.lists; part++ {
			count := g.parts[h].count[part*2*maxColors : (part+1)*2*maxColors]
			for b := len(count) - 1; b >= 2*colors; b-- {
				if count[b] != 0 {
					colors = b/2 + 1
					break
				}
			}
		}
	}
	sum := int32(0)
	g.Start = resize(g.Start, g.lists*colors+1)
	for part := 0; part < g.lists; part++ {
		for b := part * 2 * maxColors; b < part*2*maxColors+2*colors; b++ {
			if b&1 == 0 {
				g.Start[part*colors+(b-part*2*maxColors)/2] = sum
			}
			for h := range g.parts {
				p := &g.parts[h]
				p.next[b] = sum
				sum += p.count[b]
			}
		}
	}
	g.Start[g.lists*colors] = sum
	g.List = resize(g.List, int(sum))
	g.Overflow, g.Kinematic = g.Overflow[:0], g.Kinematic[:0]
	for h := range g.parts {
		g.Overflow = append(g.Overflow, g.parts[h].overflow...)
		g.Kinematic = append(g.Kinematic, g.parts[h].kinematic...)
	}
	g.task.place = true
	ex.For(parts, 1, &g.task)
	g.task = collectTask{}
}

// collectPart is one part of the list in collectOn.
type collectPart struct {
	lo, hi    int
	count     [3 * 2 * maxColors]int32 // links per bucket (three parts with halves)
	next      [3 * 2 * maxColors]int32 // the next place of each bucket in List
	overflow  []int32
	kinematic []int32
}

// noBucket marks an overflow link in Coloring.bucket.
const noBucket = 0xffff

// collectTask runs collectOn's parts: counting, or with place set, placing.
type collectTask struct {
	g     *Coloring
	links []Link
	list  []int32
	half  []int8 // by part, see collectOn
	place bool
}

func (t *collectTask) Run(lo, hi, _ int) {
	for h := lo; h < hi; h++ {
		if t.place {
			t.placePart(&t.g.parts[h])
		} else {
			t.countPart(&t.g.parts[h])
		}
	}
}

// countPart counts the part's links by bucket and keeps each link's bucket,
// its overflow links and its kinematic rows.
func (t *collectTask) countPart(p *collectPart) {
	g := t.g
	clear(p.count[:g.lists*2*maxColors])
	p.overflow, p.kinematic = p.overflow[:0], p.kinematic[:0]
	for i := p.lo; i < p.hi; i++ {
		ci := t.list[i]
		c := &t.links[ci]
		if c.KindA == KindKinematic {
			p.kinematic = append(p.kinematic, c.A)
		}
		if c.KindB == KindKinematic {
			p.kinematic = append(p.kinematic, c.B)
		}
		col := int(g.linkColor[ci])
		if col < 0 {
			p.overflow = append(p.overflow, ci)
			g.bucket[i] = noBucket
			continue
		}
		b := 2*col + int(2-c.points())
		if t.half != nil {
			b += 2 * maxColors * int(linkPart(c, t.half))
		}
		g.bucket[i] = uint16(b)
		p.count[b]++
	}
}

// placePart writes the part's links into their buckets of List.
func (t *collectTask) placePart(p *collectPart) {
	g := t.g
	for i := p.lo; i < p.hi; i++ {
		if b := g.bucket[i]; b != noBucket {
			g.List[p.next[b]] = t.list[i]
			p.next[b]++
		}
	}
}
