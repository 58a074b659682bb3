package broadphase

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"unsafe"

	"github.com/tumble2d/tumble/components"
)

var testCellSizes = []float64{0, 0.05, 0.5, 1, 2, 7.3, 100}

// scene is one oracle case.
type scene struct {
	name           string
	moving, frozen []components.AABB
}

func testScenes() []scene {
	var out []scene
	for seed := range uint64(3) {
		r := rand.New(rand.NewPCG(seed, 1))
		out = append(out,
			scene{fmt.Sprintf("uniform/%d", seed), uniformBoxes(r, 600, 0.6, 0, 0), nil},
			scene{fmt.Sprintf("negative/%d", seed), uniformBoxes(r, 400, 0.8, -1000.3, -77.7), uniformBoxes(r, 100, 0.8, -1000.3, -77.7)},
			scene{fmt.Sprintf("mixed/%d", seed), mixedBoxes(r, 500), mixedBoxes(r, 120)},
			scene{fmt.Sprintf("far/%d", seed), append(uniformBoxes(r, 200, 0.7, 1e6, -1e6), uniformBoxes(r, 200, 0.7, -1e6, 1e6)...), uniformBoxes(r, 50, 0.7, 1e6, -1e6)},
		)
		// A 200 m ground among 1 m boxes, once moving and once frozen,
		// with a sleeping pile in the frozen set.
		ground := boxAt(0, -1, 200, 2)
		mv := uniformBoxes(r, 500, 0.5, 0, 10)
		out = append(out, scene{fmt.Sprintf("ground-moving/%d", seed), append(mv[:250:250], append([]components.AABB{ground}, mv[250:]...)...), nil})
		out = append(out, scene{fmt.Sprintf("ground-frozen/%d", seed), mv, append([]components.AABB{ground}, pile(300)...)})
		out = append(out, scene{fmt.Sprintf("degenerate/%d", seed), append(degenerateBoxes(), uniformBoxes(r, 100, 1, 0, 0)...), append(uniformBoxes(r, 30, 1, 0, 0), degenerateBoxes()...)})
	}
	pm, pf := pyramids(900)
	out = append(out, scene{"pyramids", pm, pf}, scene{"pile", pile(700), []components.AABB{boxAt(0, -1, 200, 2)}})
	return out
}

func TestMatchesBruteForce(t *testing.T) {
	for _, sc := range testScenes() {
		want := brutePairs(sc.moving, sc.frozen)
		for _, cs := range testCellSizes {
			g := NewGrid(cs)
			g.SetFrozen(sc.frozen)
			got := g.FindPairs(sc.moving, nil)
			if !slices.Equal(got, want) {
				t.Fatalf("%s cell %v: %s", sc.name, cs, diff(got, want))
			}
			// Range splits: [0,k),[k,n) and a three-way split.
			n := len(sc.moving)
			for _, k := range []int{0, 1, n / 3, n / 2, n - 1, n} {
				parts := g.PairsRange(0, k, nil)
				parts = g.PairsRange(k, n, parts)
				if !slices.Equal(parts, want) {
					t.Fatalf("%s cell %v split %d: %s", sc.name, cs, k, diff(parts, want))
				}
			}
			parts := g.PairsRange(0, n/5, nil)
			parts = g.PairsRange(n/5, 3*n/4, parts)
			parts = g.PairsRange(3*n/4, n, parts)
			if !slices.Equal(parts, want) {
				t.Fatalf("%s cell %v three-way: %s", sc.name, cs, diff(parts, want))
			}
		}
	}
}

// TestReachMatchesBruteForce: with UpdateReach, moving pairs follow the
// moving boxes and frozen pairs the reach boxes: each reach box is its
// moving box grown by a random amount up to 3 m per side (a NaN reach box
// meets no frozen box; a NaN moving box still reaches the frozen set through
// a finite reach box), against the brute force, for every cell size and a
// range split.
func TestReachMatchesBruteForce(t *testing.T) {
	for _, sc := range testScenes() {
		r := rand.New(rand.NewPCG(uint64(len(sc.moving)), 9))
		reach := make([]components.AABB, len(sc.moving))
		for i, b := range sc.moving {
			g := 3 * r.Float64()
			reach[i] = components.AABB{Min: components.V(b.Min.X-g, b.Min.Y-g), Max: components.V(b.Max.X+g, b.Max.Y+g)}
			if hasNaN(&b) {
				reach[i] = boxAt(0, 0, 1, 1)
			}
		}
		if len(reach) > 3 {
			reach[3].Min.X = math.NaN()
		}
		want := bruteReachPairs(sc.moving, reach, sc.frozen)
		for _, cs := range testCellSizes {
			g := NewGrid(cs)
			g.SetFrozen(sc.frozen)
			g.UpdateReach(sc.moving, reach)
			n := len(sc.moving)
			got := g.PairsRange(0, n/2, nil)
			got = g.PairsRange(n/2, n, got)
			if !slices.Equal(got, want) {
				t.Fatalf("%s cell %v: %s", sc.name, cs, diff(got, want))
			}
			checkMarked(t, g, want, fmt.Sprintf("%s cell %v", sc.name, cs))
		}
	}
}

// checkMarked checks PairsRangeMarked against want, the brute-force pairs
// of g: the same pairs, and bit i of the bitset set exactly when moving box
// i has a frozen pair, whatever the bits held before (half of them set,
// in a pattern).
func checkMarked(t *testing.T, g *Grid, want []Pair, name string) {
	t.Helper()
	n := g.NumMoving()
	near := make([]uint64, (n+63)/64)
	for k := range near {
		near[k] = 0xAAAAAAAAAAAAAAAA
	}
	mid := n / 2 &^ 63
	got := g.PairsRangeMarked(0, mid, nil, near)
	got = g.PairsRangeMarked(mid, n, got, near)
	if !slices.Equal(got, want) {
		t.Fatalf("%s, marked: %s", name, diff(got, want))
	}
	has := make([]bool, n)
	for _, p := range want {
		if int(p.B) >= n {
			has[p.A] = true
		}
	}
	for i := range n {
		if bit := near[i>>6]>>(i&63)&1 == 1; bit != has[i] {
			t.Fatalf("%s: box %d marked %v, has a frozen pair %v", name, i, bit, has[i])
		}
	}
}

// TestExtremeCellSizes checks cell sizes whose inverses under- or overflow.
func TestExtremeCellSizes(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 5))
	moving := append(degenerateBoxes(), mixedBoxes(r, 200)...)
	frozen := append(mixedBoxes(r, 30), degenerateBoxes()...)
	want := brutePairs(moving, frozen)
	for _, cs := range []float64{1e-320, 1e-300, 1e300, math.MaxFloat64, math.Inf(1), math.NaN(), -1} {
		g := NewGrid(cs)
		g.SetFrozen(frozen)
		if got := g.FindPairs(moving, nil); !slices.Equal(got, want) {
			t.Fatalf("cell %v: %s", cs, diff(got, want))
		}
	}
}

// TestLevelSchemes checks that the schemes kept for benchmarking are exact too.
func TestLevelSchemes(t *testing.T) {
	for _, sc := range testScenes() {
		want := brutePairs(sc.moving, sc.frozen)
		for _, mode := range []int{hierIso, flat} {
			g := NewGrid(0)
			g.mov.mode, g.frz.mode = mode, mode
			g.SetFrozen(sc.frozen)
			if got := g.FindPairs(sc.moving, nil); !slices.Equal(got, want) {
				t.Fatalf("%s mode %d: %s", sc.name, mode, diff(got, want))
			}
		}
	}
}

func TestConcurrentRanges(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 7))
	moving, frozen := mixedBoxes(r, 1500), append(pile(500), boxAt(0, -1, 200, 2))
	want := brutePairs(moving, frozen)
	g := NewGrid(0)
	g.SetFrozen(frozen)
	g.Update(moving)
	const workers = 6
	res := make([][]Pair, workers)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			lo, hi := w*len(moving)/workers, (w+1)*len(moving)/workers
			res[w] = g.PairsRange(lo, hi, nil)
		})
	}
	wg.Wait()
	if got := slices.Concat(res...); !slices.Equal(got, want) {
		t.Fatal(diff(got, want))
	}
}

func TestEdgeTouching(t *testing.T) {
	// A 3x3 lattice of unit boxes touching exactly along edges and at
	// corners: every pair of neighbours, diagonal ones included, counts.
	var moving []components.AABB
	for y := range 3 {
		for x := range 3 {
			moving = append(moving, box(float64(x), float64(y), float64(x+1), float64(y+1)))
		}
	}
	frozen := []components.AABB{box(-5, -1, 10, 0), box(3, 0, 4, 3)} // ground and wall touching
	for _, cs := range testCellSizes {
		g := NewGrid(cs)
		g.SetFrozen(frozen)
		got := g.FindPairs(moving, nil)
		want := brutePairs(moving, frozen)
		if !slices.Equal(got, want) {
			t.Fatalf("cell %v: %s", cs, diff(got, want))
		}
		// 12 edge + 8 diagonal contacts, 3 on the ground, 3 on the wall.
		if len(got) != 26 {
			t.Fatalf("cell %v: %d pairs, want 26", cs, len(got))
		}
	}
}

func TestSetFrozenAndCounts(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	a := uniformBoxes(r, 300, 0.7, 0, 0)
	f1 := uniformBoxes(r, 80, 0.7, 0, 0)
	f2 := append(uniformBoxes(r, 40, 0.7, 0, 0), boxAt(0, 0, 200, 2))
	g := NewGrid(0)
	check := func(what string, moving, frozen []components.AABB) {
		t.Helper()
		got := g.FindPairs(moving, nil)
		if want := brutePairs(moving, frozen); !slices.Equal(got, want) {
			t.Fatalf("%s: %s", what, diff(got, want))
		}
		if g.NumMoving() != len(moving) {
			t.Fatalf("%s: NumMoving %d, want %d", what, g.NumMoving(), len(moving))
		}
	}
	check("no frozen", a, nil)
	g.SetFrozen(f1)
	check("frozen 1", a, f1)
	check("fewer moving", a[:100], f1)
	check("more moving", append(a, uniformBoxes(r, 200, 0.7, 0, 0)...), f1)
	g.SetFrozen(f2)
	check("frozen 2", a, f2)
	g.SetFrozen(nil)
	check("frozen cleared", a, nil)
	check("empty moving", nil, nil)
	g.SetFrozen(f1)
	check("empty moving, frozen", nil, f1)
	check("one moving", a[:1], f1)
	// The auto scale jumps 50x: the frozen set must follow and stay exact.
	big := make([]components.AABB, len(a))
	for i, b := range a {
		big[i] = components.AABB{Min: b.Min.Scale(50), Max: b.Min.Scale(50).Add(components.V(50, 50))}
	}
	check("rescaled", big, f1)
	if g.frz.scale != g.scale {
		t.Fatalf("frozen scale %v not moved to %v", g.frz.scale, g.scale)
	}
	// Ranges outside [0, n) are clamped.
	if got := g.PairsRange(-5, 1<<30, nil); !slices.Equal(got, brutePairs(big, f1)) {
		t.Fatal("clamped range differs")
	}
	if got := g.PairsRange(10, 5, nil); len(got) != 0 {
		t.Fatal("empty range gave pairs")
	}
}

func TestZeroAllocs(t *testing.T) {
	moving, frozen := pyramids(3000)
	frozen = append(frozen, pile(500)...)
	g := NewGrid(0)
	g.SetFrozen(frozen)
	dst := g.FindPairs(moving, nil)
	for _, cs := range []float64{0, 1.5} {
		g.cellSize = cs
		dst = g.FindPairs(moving, dst)
		allocs := testing.AllocsPerRun(20, func() {
			g.Update(moving)
			dst = g.PairsRange(0, len(moving)/2, dst[:0])
			dst = g.PairsRange(len(moving)/2, len(moving), dst)
		})
		if allocs != 0 {
			t.Fatalf("cell %v: %v allocs per Update+PairsRange", cs, allocs)
		}
	}
	// SetFrozen with an unchanged size is allocation free too.
	if allocs := testing.AllocsPerRun(5, func() { g.SetFrozen(frozen) }); allocs != 0 {
		t.Fatalf("%v allocs per SetFrozen", allocs)
	}
}

func TestAutoCellSize(t *testing.T) {
	s, _ := autoCellSize(pile(1000), nil)
	if math.Abs(s-autoFactor*1.02) > 1e-9 {
		t.Fatalf("pile: %v", s)
	}
	pts := []components.AABB{box(1, 1, 1, 1), box(2, 2, 2, 2)}
	if s, _ := autoCellSize(pts, nil); s != fallbackCell {
		t.Fatalf("points: %v", s)
	}
	if s, _ := autoCellSize(nil, nil); s != 0 {
		t.Fatalf("empty: %v", s)
	}
	r := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		a := make([]float64, 1+r.IntN(40))
		for i := range a {
			a[i] = float64(r.IntN(10))
		}
		k := r.IntN(len(a))
		b := slices.Clone(a)
		slices.Sort(b)
		if got := selectNth(a, k); got != b[k] {
			t.Fatalf("selectNth(%v, %d) = %v, want %v", b, k, got, b[k])
		}
	}
}

// diff describes the first difference between two pair lists.
func diff(got, want []Pair) string {
	for i := range min(len(got), len(want)) {
		if got[i] != want[i] {
			return fmt.Sprintf("at %d got %v want %v (len %d vs %d)", i, got[i], want[i], len(got), len(want))
		}
	}
	return fmt.Sprintf("len %d, want %d", len(got), len(want))
}

// TestRounding covers exact touches where the query reach is rounded, at
// cell sizes both near the box widths and far from them.
func TestRounding(t *testing.T) {
	for seed := range uint64(20) {
		r := rand.New(rand.NewPCG(seed, 99))
		moving, frozen := roundingBoxes(r, 300), roundingBoxes(r, 60)
		want := brutePairs(moving, frozen)
		if len(want) < 200 {
			t.Fatalf("seed %d: only %d pairs, the scene is too easy", seed, len(want))
		}
		for _, cs := range []float64{0, 1e-9, 1e-3, 1, 1e6} {
			g := NewGrid(cs)
			g.SetFrozen(frozen)
			if got := g.FindPairs(moving, nil); !slices.Equal(got, want) {
				t.Fatalf("seed %d cell %v: %s", seed, cs, diff(got, want))
			}
		}
	}
}

// TestRandomSmall runs many small random scenes with random cell sizes and
// splits, to reach corners (wrapping rows, full scans, tiny tables).
func TestRandomSmall(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	g := NewGrid(0)
	var dst []Pair
	for it := range 300 {
		var moving, frozen []components.AABB
		switch it % 3 {
		case 0:
			moving, frozen = uniformBoxes(r, r.IntN(60), 0.3+r.Float64(), r.NormFloat64()*100, 0), uniformBoxes(r, r.IntN(20), 1, 0, 0)
		case 1:
			moving, frozen = mixedBoxes(r, r.IntN(80)), mixedBoxes(r, r.IntN(10))
		default:
			moving, frozen = roundingBoxes(r, r.IntN(50)), roundingBoxes(r, r.IntN(10))
		}
		g.cellSize = 0
		if r.IntN(2) == 0 {
			g.cellSize = math.Pow(10, r.Float64()*6-3)
		}
		g.SetFrozen(frozen)
		g.Update(moving)
		k := 0
		if len(moving) > 0 {
			k = r.IntN(len(moving) + 1)
		}
		dst = g.PairsRange(0, k, dst[:0])
		dst = g.PairsRange(k, len(moving), dst)
		if want := brutePairs(moving, frozen); !slices.Equal(dst, want) {
			t.Fatalf("iteration %d cell %v: %s", it, g.cellSize, diff(dst, want))
		}
	}
}

// TestSortDedupAnyAlignment checks both sorts of a long segment: the
// integer sort for an 8-byte-aligned buffer, the comparison sort for a
// buffer that starts 4 bytes into a word.
func TestSortDedupAnyAlignment(t *testing.T) {
	const n = 300
	rng := rand.New(rand.NewPCG(3, 4))
	words := make([]int32, 2*n+2)
	for _, off := range []int{0, 1} {
		s := unsafe.Slice((*Pair)(unsafe.Pointer(&words[off])), n)
		want := map[int32]bool{}
		for i := range s {
			s[i] = Pair{A: 5, B: rng.Int32N(n)}
			want[s[i].B] = true
		}
		got := sortDedup(s)
		if len(got) != len(want) {
			t.Fatalf("offset %d words: %d pairs after dedup, want %d", off, len(got), len(want))
		}
		for i, p := range got {
			if p.A != 5 || !want[p.B] || i > 0 && got[i-1].B >= p.B {
				t.Fatalf("offset %d words: pair %d = %+v is out of order or unknown", off, i, p)
			}
		}
	}
}

// TestFrozenOverlapsMatchesBruteForce queries the frozen set with boxes of
// every size, the swept boxes of fast bodies among them, against a scan.
func TestFrozenOverlapsMatchesBruteForce(t *testing.T) {
	found := 0
	for _, sc := range testScenes() {
		r := rand.New(rand.NewPCG(uint64(len(sc.frozen)), 10))
		for _, cs := range testCellSizes {
			g := NewGrid(cs)
			g.SetFrozen(sc.frozen)
			g.Update(sc.moving)
			var got []Pair
			for q := range 200 {
				w, h := 20*r.Float64()*r.Float64(), 20*r.Float64()*r.Float64()
				a := boxAt((r.Float64()-0.5)*80, (r.Float64()-0.5)*80, w, h)
				var want []Pair
				for k, b := range sc.frozen {
					if a.Overlaps(b) {
						want = append(want, Pair{int32(q), int32(k)})
					}
				}
				found += len(want)
				got = g.FrozenOverlaps(&a, int32(q), got[:0])
				if !slices.Equal(got, want) {
					t.Fatalf("%s cell %v query %d: %s", sc.name, cs, q, diff(got, want))
				}
			}
		}
	}
	if found == 0 {
		t.Fatal("no query overlapped a frozen box")
	}
}

// TestOverlapsMatchesBruteForce: Overlaps finds, for random query boxes of
// 0 to 30 m (and a NaN one, which finds nothing), exactly the moving and
// frozen boxes that overlap them, for every cell size.
func TestOverlapsMatchesBruteForce(t *testing.T) {
	for _, sc := range testScenes() {
		r := rand.New(rand.NewPCG(uint64(len(sc.frozen)), 3))
		for _, cs := range testCellSizes {
			g := NewGrid(cs)
			g.SetFrozen(sc.frozen)
			g.Update(sc.moving)
			var got []Pair
			for k := range 60 {
				var q components.AABB
				switch {
				case k < 40 && len(sc.moving) > 0:
					b := sc.moving[r.IntN(len(sc.moving))]
					q = boxAt(b.Min.X+2*r.Float64()-1, b.Min.Y+2*r.Float64()-1, 30*r.Float64(), 30*r.Float64())
				case k == 59:
					q = boxAt(math.NaN(), 0, 1, 1)
				default:
					q = boxAt(100*r.Float64()-50, 100*r.Float64()-50, r.Float64(), r.Float64())
				}
				got = g.Overlaps(&q, got[:0])
				var want []Pair
				if !hasNaN(&q) {
					for i, b := range sc.moving {
						if !hasNaN(&b) && b.Overlaps(q) {
							want = append(want, Pair{0, int32(i)})
						}
					}
					for i, b := range sc.frozen {
						if !hasNaN(&b) && b.Overlaps(q) {
							want = append(want, Pair{0, int32(len(sc.moving) + i)})
						}
					}
				}
				if !slices.Equal(got, want) {
					t.Fatalf("%s cell %v query %v: %s", sc.name, cs, q, diff(got, want))
				}
			}
		}
	}
}

// TestQueryReservesLittle: the member tests write every candidate into
// room made beforehand (query.go), and a query that scans a whole class
// must make that room a block at a time, and one that goes row by row at
// most a block, or a bucket, at a time. The last of 100 001 boxes, a huge
// one that keeps none of the others (they all have lower indices), grew its
// dst to the whole class, 100 000 pairs, before blocks (a review's find).
func TestQueryReservesLittle(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	moving := append(uniformBoxes(r, 100_000, 0.5, 0, 0), boxAt(0, 0, 1000, 1000))
	g := NewGrid(0)
	g.Update(moving)
	n := len(moving)
	dst := g.PairsRange(n-1, n, nil)
	if len(dst) != 0 || cap(dst) > 4*scanBlock {
		t.Errorf("last box: %d pairs in a dst of capacity %d; want none, in at most %d", len(dst), cap(dst), 4*scanBlock)
	}
	// The whole pile against the huge box, from a box in it: every pair of
	// that box found, within one block's room past them.
	dst = g.PairsRange(0, 1, nil)
	want := 0
	for j := 1; j < n; j++ {
		if moving[0].Overlaps(moving[j]) {
			want++
		}
	}
	if len(dst) != want {
		t.Errorf("first box: %d pairs, brute force %d", len(dst), want)
	}

	// A long thin box last, over a band of 20 000 boxes of 1 m: its query
	// of the band's class goes row by row (a few rows of about 1 000 cells),
	// not through a whole-class scan, and keeps none of the members, whose
	// indices are all lower. Its rows hold thousands of them.
	band := make([]components.AABB, 20_000)
	for i := range band {
		band[i] = boxAt(2000*r.Float64()-1000, r.Float64(), 1, 1)
	}
	band = append(band, boxAt(0, 0.5, 2000, 1))
	g.Update(band)
	n = len(band)
	if dst := g.PairsRange(n-1, n, nil); len(dst) != 0 || cap(dst) > 4*scanBlock {
		t.Errorf("long box: %d pairs in a dst of capacity %d; want none, in at most %d", len(dst), cap(dst), 4*scanBlock)
	}
}

// TestSmallClassesFirst: the classes of a few members are laid out before
// the others and scanned as one run (cellset.go, smallFirst), whatever the
// order in which their boxes come: here a crowd of 1 m boxes, then
// grounds, walls and posts of other sizes between more of the crowd, so
// that pass 1 finds big and small classes in turn, in both sets. The pairs
// must be the brute force's, and the small classes' members the first
// entries.
func TestSmallClassesFirst(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	var moving []components.AABB
	odd := []components.AABB{boxAt(0, -1, 200, 2), boxAt(-40, 5, 1, 30), boxAt(3, 3, 8, 0.2), boxAt(10, 0, 0.05, 0.05)}
	for i, o := range odd {
		moving = append(moving, uniformBoxes(r, 40, 0.5, float64(10*i), 2)...)
		moving = append(moving, o)
	}
	frozen := append(uniformBoxes(r, 30, 0.5, 5, 5), odd...)
	g := NewGrid(0)
	g.SetFrozen(frozen)
	if got, want := g.FindPairs(moving, nil), brutePairs(moving, frozen); !slices.Equal(got, want) {
		t.Fatalf("%s", diff(got, want))
	}
	for _, cs := range []*cellSet{&g.mov, &g.frz} {
		if cs.small == 0 || cs.small == int32(len(cs.classes)) {
			t.Fatalf("%d small classes of %d: the scene should have both kinds", cs.small, len(cs.classes))
		}
		n := int32(0)
		for k, c := range cs.classes {
			if small := int32(k) < cs.small; small != (c.n <= smallClass) || small && c.off != n {
				t.Errorf("class %d (%d members at %d): out of place", k, c.n, c.off)
			}
			if int32(k) < cs.small {
				n += c.n
			}
		}
		if n != cs.smallEntries {
			t.Errorf("small classes hold %d members, smallEntries says %d", n, cs.smallEntries)
		}
	}
}
