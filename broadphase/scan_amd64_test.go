//go:build amd64 && !purego

package broadphase

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tumble2d/tumble/components"
)

// TestScanKernelMatchesGo checks the assembly member tests (AVX-512, and
// AVX2, which a CPU with AVX-512 runs as well) against scanGo, pair for
// pair and in the same order, on random ranges (every length mod 8, empty
// ones, several per call, a batch's worth) of random members: exact
// touches, infinite, inverted and NaN sides in members and queries, every
// minID and offset. NaN sides tell ordered compares (false on NaN, as Go's
// <=) from unordered ones. Without AVX2 the engine runs scanGo
// alone, and the test has nothing to check.
func TestScanKernelMatchesGo(t *testing.T) {
	if !scanWide {
		t.Skip("no AVX2 on this CPU or build: scan runs scanGo")
	}
	was := scan512
	defer func() { scan512 = was }()
	for _, wide := range []bool{false, true} {
		if wide && !was {
			t.Log("no AVX-512: the AVX2 kernel alone is checked")
			continue
		}
		scan512 = wide
		checkScanKernel(t)
	}
}

func checkScanKernel(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	coord := func() float64 {
		switch r.IntN(40) {
		case 0, 1:
			return math.Inf(1)
		case 2, 3:
			return math.Inf(-1)
		case 4:
			return math.NaN() // never a member of a grid, but the tests must agree
		default:
			return float64(r.IntN(9)) / 2 // many exact touches
		}
	}
	var m members
	for trial := range 3000 {
		n := 1 + r.IntN(70)
		m.resize(n)
		for p := range int32(n) {
			b := components.AABB{Min: components.V(coord(), coord()), Max: components.V(coord(), coord())}
			if r.IntN(3) > 0 && b.Min.X > b.Max.X {
				b.Min.X, b.Max.X = b.Max.X, b.Min.X
			}
			if r.IntN(3) > 0 && b.Min.Y > b.Max.Y {
				b.Min.Y, b.Max.Y = b.Max.Y, b.Min.Y
			}
			m.set(p, &b, r.IntN(1000))
		}
		a := components.AABB{Min: components.V(coord(), coord()), Max: components.V(coord(), coord())}
		if trial%50 == 0 {
			a.Min.Y = math.NaN()
		}
		A, minID, add := int32(r.IntN(1000)), int32(r.IntN(1000)), int32(r.IntN(5000))
		if r.IntN(2) == 0 {
			minID = 0
		}
		q := newScanQuery(&a, A, minID, add)
		var b batch
		var ranges [][2]int32
		for range 1 + r.IntN(batchRanges) {
			lo := int32(r.IntN(n + 1))
			hi := lo + int32(r.IntN(n-int(lo)+1))
			ranges = append(ranges, [2]int32{lo, hi})
			b.rg[b.n] = [2]int32{lo, hi}
			b.n++
			b.total += hi - lo
		}
		got := b.flush(&m, &q, nil)
		var want []Pair
		for _, rg := range ranges {
			buf := make([]Pair, rg[1]-rg[0])
			k := m.scanGo(rg[0], rg[1], &a, q.base, q.minKey, buf, 0)
			want = append(want, buf[:k]...)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("AVX-512 %v, trial %d: query %v, A %d, minID %d, add %d, ranges %v:\n got %v\nwant %v", scan512, trial, a, A, minID, add, ranges, got, want)
		}
	}
}

// TestGridPathsMatchBruteForce runs the grid's brute-force tests through
// the paths this CPU would not take: the AVX2 kernel on a CPU with
// AVX-512, and the Go loop over the struct of arrays (an x86-64 CPU
// without AVX2).
func TestGridPathsMatchBruteForce(t *testing.T) {
	if !scanWide {
		t.Skip("no AVX2 on this CPU or build: the other tests run the Go loop")
	}
	wide, w512 := scanWide, scan512
	defer func() { scanWide, scan512 = wide, w512 }()
	tests := []func(*testing.T){
		TestMatchesBruteForce, TestReachMatchesBruteForce, TestExtremeCellSizes, TestEdgeTouching,
		TestRounding, TestRandomSmall, TestFrozenOverlapsMatchesBruteForce, TestOverlapsMatchesBruteForce,
		TestQueryReservesLittle, TestSmallClassesFirst, TestZeroAllocs,
	}
	for _, path := range []struct {
		name      string
		wide, avx bool
	}{{"avx2", true, false}, {"go-loop", false, false}} {
		scanWide, scan512 = path.wide, path.avx
		t.Run(path.name, func(t *testing.T) {
			for _, test := range tests {
				test(t)
			}
		})
	}
}
