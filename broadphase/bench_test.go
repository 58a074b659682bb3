package broadphase

import (
	"fmt"
	"testing"

	"github.com/tumble2d/tumble/components"
)

var benchSizes = []int{10_000, 100_000}

var benchGround = []components.AABB{boxAt(0, -1, 200, 2)}

func report(b *testing.B, bodies int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(bodies), "ns/body")
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
			dst := g.FindPairs(moving, nil)
			b.ResetTimer()
			for b.Loop() {
				dst = g.FindPairs(moving, dst)
			}
			report(b, n)
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
			dst := g.FindPairs(moving, nil)
			b.ResetTimer()
			for b.Loop() {
				dst = g.FindPairs(moving, dst)
			}
			report(b, len(moving))
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
			dst := g.FindPairs(moving, nil)
			b.ResetTimer()
			for b.Loop() {
				dst = g.FindPairs(moving, dst)
			}
			report(b, len(moving))
		})
	}
}

// BenchmarkCellFactor is a whole tick of the 100k pile for cell sides of k
// box widths; it is the evidence behind autoFactor.
func BenchmarkCellFactor(b *testing.B) {
	moving := pile(100_000)
	for _, k := range []float64{1, 1.5, 2, 3, 4} {
		b.Run(fmt.Sprint(k), func(b *testing.B) {
			g := NewGrid(k * 1.02)
			g.SetFrozen(benchGround)
			dst := g.FindPairs(moving, nil)
			b.ResetTimer()
			for b.Loop() {
				dst = g.FindPairs(moving, dst)
			}
			report(b, len(moving))
		})
	}
}
