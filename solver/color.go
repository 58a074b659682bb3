package solver

import "math/bits"

// maxColors is the number of graph colours; contacts that find no free
// colour go to the overflow list, solved on one worker (as in Box2D v3
// constraint_graph.c, which uses 24 colours and an overflow bucket).
const maxColors = 64

// Coloring assigns the links (contacts) of large islands to colours so that no two
// contacts of a colour share a dynamic body: the contacts of one colour can
// be solved in any order, on any worker, with bit-identical results. Colour k
// holds List[Start[k]:Start[k+1]]; Overflow holds the rest.
type Coloring struct {
	Start    []int32
	List     []int32
	Overflow []int32
	// Kinematic lists the kinematic rows the contacts touch, once per
	// contact side (so with repeats), in list order.
	Kinematic []int32

	used  []uint64 // per body row: colours taken
	color []int8   // per listed contact
	count [maxColors + 1]int32
}

// Colors returns the number of colours in use.
func (g *Coloring) Colors() int { return len(g.Start) - 1 }

// Color returns the contacts of colour k.
func (g *Coloring) Color(k int) []int32 { return g.List[g.Start[k]:g.Start[k+1]] }

// Build colours the given contacts greedily in list order (first free
// colour), which depends only on the inputs. Static and kinematic sides take
// no colour: they are never written.
func (g *Coloring) Build(links []Link, list []int32, numBodies int) {
	g.used = resize(g.used, numBodies)
	for _, ci := range list {
		c := &links[ci]
		if c.KindA == KindDynamic {
			g.used[c.A] = 0
		}
		if c.KindB == KindDynamic {
			g.used[c.B] = 0
		}
	}
	g.color = resize(g.color, len(list))
	g.count = [maxColors + 1]int32{}
	g.Overflow = g.Overflow[:0]
	g.Kinematic = g.Kinematic[:0]
	colors := 0
	for k, ci := range list {
		c := &links[ci]
		if c.KindA == KindKinematic {
			g.Kinematic = append(g.Kinematic, c.A)
		}
		if c.KindB == KindKinematic {
			g.Kinematic = append(g.Kinematic, c.B)
		}
		var mask uint64
		if c.KindA == KindDynamic {
			mask |= g.used[c.A]
		}
		if c.KindB == KindDynamic {
			mask |= g.used[c.B]
		}
		if mask == ^uint64(0) {
			g.color[k] = -1
			g.Overflow = append(g.Overflow, ci)
			continue
		}
		col := bits.TrailingZeros64(^mask)
		bit := uint64(1) << col
		if c.KindA == KindDynamic {
			g.used[c.A] |= bit
		}
		if c.KindB == KindDynamic {
			g.used[c.B] |= bit
		}
		g.color[k] = int8(col)
		g.count[col+1]++
		colors = max(colors, col+1)
	}
	g.Start = prefix(g.Start, g.count[:colors+1])
	g.List = resize(g.List, int(g.Start[colors]))
	var next [maxColors]int32
	copy(next[:], g.Start[:colors])
	for k, ci := range list {
		if col := g.color[k]; col >= 0 {
			g.List[next[col]] = ci
			next[col]++
		}
	}
}
