package broadphase

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tumble2d/tumble/components"
)

var benchSizes = []int{10_000, 100_000}

var benchGround = []components.AABB{boxAt(0, -1, 200, 2)}

func report(b *testing.B, bodies int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(bodies), "ns/body")
}

// timeFindPairs times whole ticks of g (Update and all pairs) over moving,
// after one untimed tick that grows the buffers, reports ns/body and
// returns the last tick's pairs.
func timeFindPairs(b *testing.B, g *Grid, moving []components.AABB) []Pair {
	dst := g.FindPairs(moving, nil)
	b.ResetTimer()
	for b.Loop() {
		dst = g.FindPairs(moving, dst)
	}
	report(b, len(moving))
	return dst
}

// BenchmarkGridInsert times Update on a pile of 1 m boxes 100 m wide over a
// frozen 200 m ground.
func BenchmarkGridInsert(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			moving := pile(n)
			g := NewGrid(0)
			g.SetFrozen(benchGround)
			g.Update(moving)
			b.ResetTimer()
			for b.Loop() {
				g.Update(moving)
			}
			report(b, n)
		})
	}
}

// BenchmarkGridQuery times PairsRange over all boxes of the same scene.
func BenchmarkGridQuery(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			moving := pile(n)
			g := NewGrid(0)
			g.SetFrozen(benchGround)
			g.Update(moving)
			dst := g.PairsRange(0, n, nil)
			b.ResetTimer()
			for b.Loop() {
				dst = g.PairsRange(0, n, dst[:0])
			}
			report(b, n)
			b.ReportMetric(float64(len(dst))/float64(n), "pairs/body")
		})
	}
}

// BenchmarkGridFindPairs times a whole tick (Update + all pairs).
func BenchmarkGridFindPairs(b *testing.B) {
	for _, n := range benchSizes {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			moving := pile(n)
			g := NewGrid(0)
			g.SetFrozen(benchGround)
			timeFindPairs(b, g, moving)
		})
	}
}

// modes names the level schemes compared by the oversized-box benchmarks:
// aniso is what Grid uses; iso gives a box one level from max(w, h); flat
// has no hierarchy, so one big box widens every query of its level.
var modes = []struct {
	name string
	mode int
}{{"aniso", hierAniso}, {"iso", hierIso}, {"flat", flat}}

// BenchmarkManyPyramids is a whole tick of the many_pyramids scene: 22000
// 1 m boxes on 20 static grounds 220 m x 0.1 m stacked 12 m apart. With
// square cells (iso) the grounds share one 512 m cell, so every box tests
// all 20; separate width and height levels give them 512 m x 2 m cells.
func BenchmarkManyPyramids(b *testing.B) {
	moving, frozen := pyramids(22000)
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			g := NewGrid(0)
			g.mov.mode, g.frz.mode = m.mode, m.mode
			g.SetFrozen(frozen)
			timeFindPairs(b, g, moving)
		})
	}
}

// BenchmarkMovingGround is a whole tick of a 10k pile whose 200 m x 2 m
// ground is itself a moving box (index 0). Without the hierarchy (flat) its
// width becomes the reach of every query: each box scans ~100 cells.
func BenchmarkMovingGround(b *testing.B) {
	moving := append([]components.AABB{benchGround[0]}, pile(10_000)...)
	for _, m := range modes {
		b.Run(m.name, func(b *testing.B) {
			g := NewGrid(0)
			g.mov.mode, g.frz.mode = m.mode, m.mode
			timeFindPairs(b, g, moving)
		})
	}
}

// BenchmarkCellFactor is a whole tick of the 100k pile for cell sides of k
// box widths; it is the evidence behind autoFactor.
func BenchmarkCellFactor(b *testing.B) {
	moving := pile(100_000)
	for _, k := range []float64{1, 1.5, 2, 2.5, 3, 4} {
		b.Run(fmt.Sprint(k), func(b *testing.B) {
			g := NewGrid(k * 1.02)
			g.SetFrozen(benchGround)
			timeFindPairs(b, g, moving)
		})
	}
}

// densePile is tumbler's broad phase at rest in its drum: 2 025 boxes of
// 0.25 m at random angles, packed 0.27 m apart, their rows partly shuffled
// as tumbling leaves them, after four 20 m x 1 m walls turned by 30 degrees
// (rows 0-3), whose boxes cover most of the pile.
func densePile() []components.AABB {
	r := rand.New(rand.NewPCG(3, 3))
	var out []components.AABB
	for k := range 4 {
		a := math.Pi/6 + float64(k)*math.Pi/2
		s, c := math.Abs(math.Sin(a)), math.Abs(math.Cos(a))
		cx, cy := 10*math.Cos(a), 10+10*math.Sin(a)
		ex, ey := 10*s+0.5*c, 10*c+0.5*s
		out = append(out, box(cx-ex, cy-ey, cx+ex, cy+ey))
	}
	var pile []components.AABB
	for i := range 45 {
		for j := range 45 {
			x := -6 + 0.27*float64(j) + 0.01*r.Float64()
			y := 0.5 + 0.27*float64(i) + 0.01*r.Float64()
			t := r.Float64() * math.Pi / 2
			e := 0.125*(math.Abs(math.Cos(t))+math.Abs(math.Sin(t))) + 0.02
			pile = append(pile, box(x-e, y-e, x+e, y+e))
		}
	}
	for i := range pile {
		if r.IntN(3) == 0 {
			j := r.IntN(len(pile))
			pile[i], pile[j] = pile[j], pile[i]
		}
	}
	return append(out, pile...)
}

// BenchmarkQueryDensePile times a whole tick (Update + all pairs) of
// densePile. A box's query cells hold about 32 members, more than half of
// them with an index below its own, and one in five of the others
// overlaps it: the case scanTails and the branch-free tests are for.
func BenchmarkQueryDensePile(b *testing.B) {
	moving := densePile()
	g := NewGrid(0)
	dst := timeFindPairs(b, g, moving)
	b.ReportMetric(float64(len(dst))/float64(len(moving)), "pairs/body")
}

// BenchmarkQueryOpenBox times a whole tick of circle_rain's broad phase as
// its pile forms: 10 000 boxes of 0.5-1.0 m (the circles' boxes), packed
// 1.05 m apart, in an open box of a floor and two walls, the frozen set.
// Every box's query meets the three frozen classes of one member each.
func BenchmarkQueryOpenBox(b *testing.B) {
	r := rand.New(rand.NewPCG(5, 5))
	moving := make([]components.AABB, 10_000)
	for k := range moving {
		row, col := k/92, k%92
		e := 0.5 + 0.5*r.Float64()
		moving[k] = boxAt(-48+1.05*float64(col)+0.525*float64(row%2), 1+1.05*float64(row), e, e)
	}
	frozen := []components.AABB{boxAt(0, -0.5, 102, 1), boxAt(-50.5, 60, 1, 120), boxAt(50.5, 60, 1, 120)}
	g := NewGrid(0)
	g.SetFrozen(frozen)
	timeFindPairs(b, g, moving)
}
