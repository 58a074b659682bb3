package solver

import (
	"slices"
	"testing"
)

// halvedPile is randomPile solved in halves: halvesMinLinks is lowered so
// that its 900 links qualify.
func halvedPile(t *testing.T, seed uint64) (*Solver, Params) {
	t.Helper()
	defer func(saved int) { halvesMinLinks = saved }(halvesMinLinks)
	halvesMinLinks = 1
	s, prm := randomPile(seed, 300, 900)
	if s.halves.colors == 0 || len(s.groups) != 1 {
		t.Fatalf("seed %d: the pile is not solved in halves", seed)
	}
	return s, prm
}

// TestHalvesLayout checks the order of a group in halves: every coloured
// link once; each colour entry of a half holds links whose dynamic bodies
// all lie in that half, each of the seam links with a dynamic body in
// each half; no two links of an entry share a dynamic body; and the
// two-point links come first in each entry.
func TestHalvesLayout(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		s, _ := halvedPile(t, seed)
		n := s.halves.colors
		g := &s.groups[0]
		if got := int(g.colors[1]-g.colors[0]) - 1; got != 3*n {
			t.Fatalf("seed %d: %d colour entries, want 3 x %d", seed, got, n)
		}
		var listed []int32
		listed = append(listed, s.Order[g.overflow:s.colorStart[g.colors[0]]]...)
		seam := 0
		for e := 0; e < 3*n; e++ {
			part, k := e/n, e%n
			links := s.Order[s.colorStart[int(g.colors[0])+e]:s.colorStart[int(g.colors[0])+e+1]]
			listed = append(listed, links...)
			used := map[int32]bool{}
			onePoint := false
			for _, li := range links {
				if got := int(s.Coloring.linkColor[li]); got != k {
					t.Fatalf("seed %d: link %d of colour %d listed in entry %d", seed, li, got, e)
				}
				l := s.Links[li]
				var halves []int8
				for _, side := range []struct {
					row  int32
					kind Kind
				}{{l.A, l.KindA}, {l.B, l.KindB}} {
					if side.kind != KindDynamic {
						continue
					}
					if used[side.row] {
						t.Fatalf("seed %d: entry %d has two links on row %d", seed, e, side.row)
					}
					used[side.row] = true
					halves = append(halves, s.halves.half[side.row])
				}
				switch {
				case part < 2 && slices.ContainsFunc(halves, func(h int8) bool { return int(h) != part }):
					t.Fatalf("seed %d: link %d in half %d has bodies in halves %v", seed, li, part, halves)
				case part == 2 && (len(halves) != 2 || halves[0] == halves[1]):
					t.Fatalf("seed %d: seam link %d has bodies in halves %v", seed, li, halves)
				}
				if l.points() == 1 {
					onePoint = true
				} else if onePoint {
					t.Fatalf("seed %d: entry %d lists a two-point link after a one-point one", seed, e)
				}
			}
			if part == 2 {
				seam += len(links)
			}
		}
		want := slices.Clone(s.largeLinks)
		slices.Sort(want)
		slices.Sort(listed)
		if !slices.Equal(listed, want) {
			t.Fatalf("seed %d: %d links listed, want each of the %d large links once", seed, len(listed), len(want))
		}
		if seam == 0 || seam == len(want) {
			t.Fatalf("seed %d: %d of %d links in the seam: the pile does not test both", seed, seam, len(want))
		}
	}
}

// TestHalvesSameForAnyExecutor solves piles in halves on one goroutine and
// on two and three (the halves side by side), with the scalar and the wide
// kernels, with the restitution pass run on every colour or only on those
// that bounce, and with the stages joined into as few jobs as the order
// allows or each in a job of its own (halves_step.go): the results must be
// the same bits, and those of the scalar kernels up to the rounding
// described at same. The piles have kinematic rows, which the joined jobs
// must not read before they hold the pose of their pass.
func TestHalvesSameForAnyExecutor(t *testing.T) {
	saved := wideKernel
	defer func() { wideKernel, restituteAll, halvesStageJobs = saved, false, false }()
	for seed := uint64(1); seed <= 8; seed++ {
		var ref *Solver
		for run, c := range []struct {
			wide, all, stageJobs bool
			ex                   Executor
		}{{false, false, true, Serial{}}, {false, true, false, parallel{2}}, {false, false, false, Serial{}},
			{saved, false, false, Serial{}}, {saved, false, false, parallel{2}}, {saved, true, false, parallel{3}},
			{saved, false, true, parallel{2}}} {
			wideKernel, restituteAll, halvesStageJobs = c.wide, c.all, c.stageJobs
			s, prm := halvedPile(t, seed)
			s.Solve(c.ex, &prm)
			if ref == nil {
				ref = s
				continue
			}
			eq := func(a, b float64) bool { return a == b || (c.wide != ref.wide && same(a, b)) }
			for i := range ref.Bodies {
				a, b := &ref.Bodies[i], &s.Bodies[i]
				if !eq(a.V.X, b.V.X) || !eq(a.V.Y, b.V.Y) || !eq(a.W, b.W) || !eq(a.DP.X, b.DP.X) ||
					!eq(a.DP.Y, b.DP.Y) || !eq(a.DQ.C, b.DQ.C) || !eq(a.DQ.S, b.DQ.S) {
					t.Fatalf("seed %d run %d: body %d: %+v, want %+v", seed, run, i, *b, *a)
				}
			}
			for li := range ref.Links {
				n1, normal1, tangent1 := ref.Impulses(li)
				n2, normal2, tangent2 := s.Impulses(li)
				if n1 != n2 {
					t.Fatalf("seed %d run %d: link %d: %d points, want %d", seed, run, li, n2, n1)
				}
				for j := range n1 {
					if !eq(normal1[j], normal2[j]) || !eq(tangent1[j], tangent2[j]) {
						t.Fatalf("seed %d run %d: link %d point %d: (%v, %v), want (%v, %v)", seed, run, li, j,
							normal2[j], tangent2[j], normal1[j], tangent1[j])
					}
				}
			}
		}
	}
}

// TestHalvesOrderEitherWay lays out piles of several large islands with
// kinematic rows (no groups) in halves both ways: listed by half by the
// colouring, and sorted into the halves afterwards (when the last step
// had no kinematic rows to go by). The order, the colour entries and the
// seam's rows must be the same.
func TestHalvesOrderEitherWay(t *testing.T) {
	defer func(saved int) { halvesMinLinks = saved }(halvesMinLinks)
	halvesMinLinks = 1
	for seed := uint64(1); seed <= 6; seed++ {
		s, prm := randomPiles(seed, 3, 300, 900, true, 64, nil)
		if len(s.large) < 2 || len(s.Coloring.Kinematic) == 0 {
			t.Fatalf("seed %d: %d large islands, %d kinematic sides: not the layout to test", seed, len(s.large), len(s.Coloring.Kinematic))
		}
		var order, starts, seam [2][]int32
		for way, byPart := range []bool{false, true} {
			s.lastKinematic = byPart
			s.BuildIslands(&prm)
			if s.halves.colors == 0 || s.Coloring.lists != map[bool]int{false: 1, true: 3}[byPart] {
				t.Fatalf("seed %d: halves %d, lists %d with byPart %v", seed, s.halves.colors, s.Coloring.lists, byPart)
			}
			order[way], starts[way] = slices.Clone(s.Order), slices.Clone(s.colorStart)
			seam[way] = slices.Clone(s.halves.seamRows)
		}
		if !slices.Equal(order[0], order[1]) || !slices.Equal(starts[0], starts[1]) || !slices.Equal(seam[0], seam[1]) {
			t.Fatalf("seed %d: the two ways lay the halves out differently", seed)
		}
	}
}

// TestHalvesOnAUsedSolver solves a pile in halves on a solver that has just
// solved another (with other rows in its seam, and fewer or more rows):
// the step must give the bits a new solver gives. The seam's marks of one
// step stay until the next builds its halves (halvesFirst), and the rows
// of each half that the seam does not touch are listed from them by that
// half's worker (restRows): a mark left over would keep a row out of its
// half's integration.
func TestHalvesOnAUsedSolver(t *testing.T) {
	defer func(saved int) { halvesMinLinks = saved }(halvesMinLinks)
	halvesMinLinks = 1
	var byLink []Contact
	keep := func(_ *Solver, _ *Params, b []Contact) { byLink = slices.Clone(b) }
	for seed := uint64(1); seed <= 6; seed++ {
		used, prm := randomPiles(seed, 1, 300, 900, true, 64, nil)
		used.Solve(Serial{}, &prm)
		n := 250 + 50*int(seed%3) // fewer, as many and more rows
		fresh, prm2 := randomPiles(seed+100, 1, n, 3*n, true, 64, keep)
		if fresh.halves.colors == 0 || used.halves.colors == 0 {
			t.Fatalf("seed %d: not solved in halves", seed)
		}
		used.Bodies, used.Sims = slices.Clone(fresh.Bodies), slices.Clone(fresh.Sims)
		used.Links, used.Joints = slices.Clone(fresh.Links), nil
		fresh.Solve(Serial{}, &prm2)
		used.BuildIslands(&prm2)
		used.Arrange(byLink)
		used.Solve(Serial{}, &prm2)
		if !slices.Equal(used.halves.seamRows, fresh.halves.seamRows) {
			t.Fatalf("seed %d: the used solver's seam differs", seed)
		}
		for i := range fresh.Bodies {
			if !bitsEqual(used.Bodies[i], fresh.Bodies[i]) {
				t.Fatalf("seed %d: row %d is %+v on the used solver, %+v on a new one", seed, i, used.Bodies[i], fresh.Bodies[i])
			}
		}
	}
}
