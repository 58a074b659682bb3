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
// the rest.
type Coloring struct {
	Start    []int32
	List     []int32
	Overflow []int32
	// Kinematic lists the kinematic rows the contacts touch, once per
	// contact side (so with repeats), in list order.
	Kinematic []int32

	used      []uint64 // per body row: colours taken
	linkColor []int8   // per link: its colour, -1 for none
	count     [2*maxColors + 1]int32
}

// Colors returns the number of colours in use.
func (g *Coloring) Colors() int { return len(g.Start) - 1 }

// Color returns the contacts of colour k.
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
// overflow and the kinematic rows. Within a colour the two-point links come
// first, then the one-point links (see Link.Points), each in list order: the
// solver order the wide layout needs, so BuildIslands copies whole colours.
func (g *Coloring) collect(links []Link, list []int32) {
	// Bucket 2k holds colour k's two-point links, bucket 2k+1 its one-point
	// links; count[b+1] counts bucket b.
	g.count = [2*maxColors + 1]int32{}
	g.Overflow = g.Overflow[:0]
	g.Kinematic = g.Kinematic[:0]
	colors := 0
	for _, ci := range list {
		c := &links[ci]
		if c.KindA == KindKinematic {
			g.Kinematic = append(g.Kinematic, c.A)
		}
		if c.KindB == KindKinematic {
			g.Kinematic = append(g.Kinematic, c.B)
		}
		col := int(g.linkColor[ci])
		if col < 0 {
			g.Overflow = append(g.Overflow, ci)
			continue
		}
		g.count[2*col+int(2-c.points())+1]++
		colors = max(colors, col+1)
	}
	var next [2 * maxColors]int32
	sum := int32(0)
	for b := 0; b < 2*colors; b++ {
		next[b] = sum
		sum += g.count[b+1]
	}
	g.Start = resize(g.Start, colors+1)
	for k := 0; k < colors; k++ {
		g.Start[k] = next[2*k]
	}
	g.Start[colors] = sum
	g.List = resize(g.List, int(sum))
	for _, ci := range list {
		if col := int(g.linkColor[ci]); col >= 0 {
			b := 2*col + int(2-links[ci].points())
			g.List[next[b]] = ci
			next[b]++
		}
	}
}
