package solver

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"unsafe"

	"github.com/tumble2d/tumble/components"
)

// TestWideLayout pins the field offsets that wide_amd64.h hard-codes.
func TestWideLayout(t *testing.T) {
	var w wideContact
	var p widePoint
	var q wideParams
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"offA", unsafe.Offsetof(w.offA), 0}, {"offB", unsafe.Offsetof(w.offB), 64},
		{"nx", unsafe.Offsetof(w.nx), 128}, {"ny", unsafe.Offsetof(w.ny), 192},
		{"friction", unsafe.Offsetof(w.friction), 256}, {"mA", unsafe.Offsetof(w.mA), 320},
		{"iA", unsafe.Offsetof(w.iA), 384}, {"mB", unsafe.Offsetof(w.mB), 448},
		{"iB", unsafe.Offsetof(w.iB), 512},
		{"maskA", unsafe.Offsetof(w.maskA), 576}, {"maskB", unsafe.Offsetof(w.maskB), 584},
		{"stiff", unsafe.Offsetof(w.stiff), 592}, {"heavy", unsafe.Offsetof(w.heavy), 600},
		{"points", unsafe.Offsetof(w.points), 608}, {"pts", unsafe.Offsetof(w.pts), 640},
		{"sizeof(wideContact)", unsafe.Sizeof(w), 1920}, {"sizeof(wideUnit)", unsafe.Sizeof(wideUnit{}), 640},
		{"blockBytes(1)", blockBytes(1), 1280}, {"blockBytes(2)", blockBytes(2), 1920},
		{"rAx", unsafe.Offsetof(p.rAx), 0}, {"rAy", unsafe.Offsetof(p.rAy), 64},
		{"rBx", unsafe.Offsetof(p.rBx), 128}, {"rBy", unsafe.Offsetof(p.rBy), 192},
		{"baseSep", unsafe.Offsetof(p.baseSep), 256}, {"normalMass", unsafe.Offsetof(p.normalMass), 320},
		{"tangentMass", unsafe.Offsetof(p.tangentMass), 384}, {"normalImpulse", unsafe.Offsetof(p.normalImpulse), 448},
		{"tangentImpulse", unsafe.Offsetof(p.tangentImpulse), 512}, {"maxNormalImpulse", unsafe.Offsetof(p.maxNormalImpulse), 576},
		{"sizeof(widePoint)", unsafe.Sizeof(p), 640},
		{"zero", unsafe.Offsetof(q.zero), 0}, {"one", unsafe.Offsetof(q.one), 64}, {"sign", unsafe.Offsetof(q.sign), 128},
		{"invH", unsafe.Offsetof(q.invH), 192}, {"negMaxPushOut", unsafe.Offsetof(q.negMaxPushOut), 256},
		{"biasMask", unsafe.Offsetof(q.biasMask), 320}, {"flip", unsafe.Offsetof(q.flip), 384},
		{"softBiasRate", unsafe.Offsetof(q.softBiasRate), 448}, {"softMassScale", unsafe.Offsetof(q.softMassScale), 512},
		{"softImpScale", unsafe.Offsetof(q.softImpScale), 576}, {"stiffBiasRate", unsafe.Offsetof(q.stiffBiasRate), 640},
		{"stiffMassScale", unsafe.Offsetof(q.stiffMassScale), 704}, {"stiffImpScale", unsafe.Offsetof(q.stiffImpScale), 768},
		{"heavyBiasRate", unsafe.Offsetof(q.heavyBiasRate), 832}, {"heavyMassScale", unsafe.Offsetof(q.heavyMassScale), 896},
		{"heavyImpScale", unsafe.Offsetof(q.heavyImpScale), 960},
		{"deepOverlap", unsafe.Offsetof(q.deepOverlap), 1024}, {"deepFrac", unsafe.Offsetof(q.deepFrac), 1088},
		{"sizeof(BodyState)", unsafe.Sizeof(BodyState{}), bodyStride},
		{"BodyState.DP", unsafe.Offsetof(BodyState{}.DP), 24}, {"BodyState.DQ", unsafe.Offsetof(BodyState{}.DQ), 40},
	} {
		if c.got != c.want {
			t.Errorf("%s at %d, wide_amd64.h assumes %d", c.name, c.got, c.want)
		}
	}
}

// randomPile builds a solver whose contacts join n bodies at random, with
// random velocities, anchors, normals, restitutions and warm-start impulses;
// a fifth of the contacts have one point, some sides are static or
// kinematic. Every island is coloured (from 1 contact on), and solved by the
// wide blocks if wideKernel is set.
func randomPile(seed uint64, n, m int) (*Solver, Params) {
	return randomPileEdit(seed, n, m, nil)
}

// randomPileEdit is randomPile with edit applied to the contacts, in link
// order, after BuildIslands and before they are stored.
func randomPileEdit(seed uint64, n, m int, edit func(s *Solver, prm *Params, byLink []Contact)) (*Solver, Params) {
	return randomPiles(seed, 1, n, m, true, 1, edit)
}

// randomPiles is randomPileEdit with the rows cut into piles separate
// piles (islands, apart from static and kinematic sides; kinematic rows
// only with kinematic), contact k in pile k%piles, and islands from large
// contacts on coloured.
func randomPiles(seed uint64, piles, n, m int, kinematic bool, large int, edit func(s *Solver, prm *Params, byLink []Contact)) (*Solver, Params) {
	r := rand.New(rand.NewPCG(seed, 7))
	s := &Solver{}
	f := func(a, b float64) float64 { return a + (b-a)*r.Float64() }
	for i := 0; i < n; i++ {
		kind := KindDynamic
		if kinematic && i%17 == 16 {
			kind = KindKinematic
		}
		s.Bodies = append(s.Bodies, BodyState{V: components.V(f(-2, 2), f(-2, 2)), W: f(-3, 3),
			DQ: components.Identity})
		sim := BodySim{X: components.Transform{P: components.V(f(-20, 20), f(0, 20)), R: components.NewRot(f(-3, 3))},
			InvMass: f(0.2, 2), InvInertia: f(0.5, 6), GravityScale: 1, MaxExtent: 1, Kind: kind}
		if i%5 == 3 {
			// Some bodies 30 times lighter, so that some pairs take the
			// heavy softness (DefaultParams: masses apart more than tenfold).
			sim.InvMass *= 30
		}
		if kind != KindDynamic {
			sim.InvMass, sim.InvInertia = 0, 0
		}
		s.Sims = append(s.Sims, sim)
	}
	var byLink []Contact
	for len(byLink) < m {
		pile := len(byLink) % piles
		lo, size := pile*n/piles, (pile+1)*n/piles-pile*n/piles
		a, b := int32(lo+r.IntN(size)), int32(lo+r.IntN(size))
		if a == b || s.Sims[a].Kind != KindDynamic {
			continue
		}
		kb := s.Sims[b].Kind
		if r.IntN(8) == 0 {
			b, kb = -1, KindStatic
		}
		nrm, _ := components.V(f(-1, 1), f(-1, 1)).Normalize()
		c := Contact{A: a, B: b, KindA: KindDynamic, KindB: kb, Count: 2, Normal: nrm,
			Friction: f(0, 1), InvMassA: s.Sims[a].InvMass, InvIA: s.Sims[a].InvInertia}
		if kb == KindDynamic {
			c.InvMassB, c.InvIB = s.Sims[b].InvMass, s.Sims[b].InvInertia
		}
		if r.IntN(3) == 0 {
			c.Restitution = f(0, 1)
		}
		if r.IntN(5) == 0 {
			c.Count = 1
		}
		ca := s.Sims[a].X.P
		cb := ca.Add(nrm.Scale(1))
		if b >= 0 {
			cb = s.Sims[b].X.P
		}
		for j := 0; j < int(c.Count); j++ {
			p := ca.Add(components.V(f(-1, 1), f(-1, 1)))
			c.SetPoint(j, p, f(-0.05, 0.02), f(0, 3), f(-1, 1))
		}
		if r.IntN(2) == 0 {
			// The static or kinematic side, if any, on side A.
			c.A, c.B, c.KindA, c.KindB = c.B, c.A, c.KindB, c.KindA
			c.InvMassA, c.InvIA, c.InvMassB, c.InvIB = c.InvMassB, c.InvIB, c.InvMassA, c.InvIA
			c.Normal = c.Normal.Neg()
			ca, cb = cb, ca
		}
		c.Prepare(s.Bodies, ca, cb)
		s.Links = append(s.Links, c.Link())
		byLink = append(byLink, c)
	}
	prm := DefaultParams()
	prm.Gravity = components.V(f(-5, 5), -10)
	prm.LargeIslandContacts = large
	s.BuildIslands(&prm)
	if edit != nil {
		edit(s, &prm, byLink)
	}
	s.Arrange(byLink)
	return s, prm
}

// same compares with ==, so the sign of zero is ignored, and NaN differs.
// Where the compiler fuses multiply-adds (GOAMD64=v3 and up), the scalar and
// Go reference kernels round differently from the assembly, which never
// fuses; the results then agree to rounding only.
func same(a, b float64) bool {
	if fusing {
		return math.Abs(a-b) <= 1e-9*max(1, math.Abs(a), math.Abs(b))
	}
	return a == b
}

// fusing reports whether this build fuses x*y+z into one rounding: (1+e)(1-e)
// - 1 is 0 after rounding the product, -e^2 when fused.
var fusing = mulAdd(1+0x1p-30, 1-0x1p-30, -1) != 0

// mulAdd is not inlined, so that its operands are not constants it could
// fold.
//
//go:noinline
func mulAdd(x, y, z float64) float64 { return x*y + z }

// parallel runs each For on n goroutines, one contiguous slice each.
type parallel struct{ n int }

func (e parallel) Workers() int { return e.n }

func (e parallel) For(n, _ int, t Task) {
	var wg sync.WaitGroup
	per := (n + e.n - 1) / e.n
	for w, lo := 0, 0; lo < n; w, lo = w+1, lo+per {
		wg.Add(1)
		go func(lo, hi, w int) { defer wg.Done(); t.Run(lo, hi, w) }(lo, min(lo+per, n), w)
	}
	wg.Wait()
}

// TestWideSolveMatchesScalar solves random piles with the wide blocks (on
// one goroutine, or three) and with the scalar kernels: every velocity,
// delta and impulse must be equal, and what Approach reports.
// Where the AVX2 kernels are not available, the wide stages run the Go
// reference kernels, so the test checks the wide layout on any machine.
func TestWideSolveMatchesScalar(t *testing.T) {
	saved := wideKernel
	defer func() { wideKernel = saved }()
	hits := 0
	for seed := uint64(1); seed <= 20; seed++ {
		s1, s2, prm := scalarThenWide(seed, nil)
		var ex Executor = Serial{}
		if seed%2 == 0 {
			ex = parallel{3} // colours split between goroutines
		}
		s2.Solve(ex, &prm)
		hits += matchScalar(t, seed, s1, s2)
	}
	if hits == 0 {
		t.Fatal("no point approached and pushed: the approach comparison saw nothing")
	}
}

// scalarThenWide builds random pile seed twice, with edit (see
// randomPileEdit): s1 solved with the scalar kernels, and s2, not yet
// solved, laid out in wide blocks (wideKernel is left set; the caller
// restores it).
func scalarThenWide(seed uint64, edit func(s *Solver, prm *Params, byLink []Contact)) (s1, s2 *Solver, prm Params) {
	wideKernel = false
	s1, prm = randomPileEdit(seed, 300, 900, edit)
	s1.Solve(Serial{}, &prm)
	wideKernel = true
	s2, _ = randomPileEdit(seed, 300, 900, edit)
	return s1, s2, prm
}

// matchScalar fails t unless s2 (solved with the wide blocks) left every
// velocity, delta, impulse and approach as s1 (the scalar kernels) did, and
// returns the number of points that approached and pushed.
func matchScalar(t *testing.T, seed uint64, s1, s2 *Solver) (hits int) {
	t.Helper()
	if len(s2.Bodies) != len(s1.Bodies) {
		t.Fatalf("seed %d: %d body rows after the wide solve, want %d", seed, len(s2.Bodies), len(s1.Bodies))
	}
	for i := range s1.Bodies {
		a, b := &s1.Bodies[i], &s2.Bodies[i]
		if !same(a.V.X, b.V.X) || !same(a.V.Y, b.V.Y) || !same(a.W, b.W) || !same(a.DP.X, b.DP.X) ||
			!same(a.DP.Y, b.DP.Y) || !same(a.DQ.C, b.DQ.C) || !same(a.DQ.S, b.DQ.S) {
			t.Fatalf("seed %d: body %d (%v): scalar %+v, wide %+v", seed, i, s1.Sims[i].Kind, *a, *b)
		}
	}
	for li := range s1.Links {
		n1, normal1, tangent1 := s1.Impulses(li)
		n2, normal2, tangent2 := s2.Impulses(li)
		if n1 != n2 {
			t.Fatalf("seed %d: link %d: %d points scalar, %d wide", seed, li, n1, n2)
		}
		for j := range n1 {
			if !same(normal1[j], normal2[j]) || !same(tangent1[j], tangent2[j]) {
				t.Fatalf("seed %d: link %d point %d: scalar (%v, %v), wide (%v, %v)", seed, li, j,
					normal1[j], tangent1[j], normal2[j], tangent2[j])
			}
		}
		// What the contact events read: each point's approach and
		// largest substep impulse.
		_, vel1, pushed1 := s1.Approach(li)
		_, vel2, pushed2 := s2.Approach(li)
		for j := range n1 {
			if !same(vel1[j], vel2[j]) || !same(pushed1[j], pushed2[j]) {
				t.Fatalf("seed %d: link %d point %d: approach and push scalar (%v, %v), wide (%v, %v)", seed, li, j,
					vel1[j], pushed1[j], vel2[j], pushed2[j])
			}
			if pushed1[j] > 0 && vel1[j] < 0 {
				hits++
			}
		}
	}
	return hits
}

// TestWideMatchesScalarAcrossParams is TestWideSolveMatchesScalar under
// other solver settings, the wide colours split between two goroutines. At
// a restitution threshold of 0 every approaching point bounces: a one-point
// contact in a two-point block must restitute as its own one point, as the
// scalar path does, not as a two-point impact with an empty second point
// (whose approach, 0, is then <= -0); it did, until the lanes kept their own
// point count (wideCold.count).
func TestWideMatchesScalarAcrossParams(t *testing.T) {
	saved := wideKernel
	defer func() { wideKernel = saved }()
	for _, v := range []struct {
		name string
		set  func(p *Params)
	}{
		{"restitution threshold 0", func(p *Params) { p.RestitutionThreshold = 0 }},
		{"no restitution", func(p *Params) { p.RestitutionThreshold = 1e9 }},
		{"1 substep", func(p *Params) { p.SubSteps = 1 }},
		{"8 substeps", func(p *Params) { p.SubSteps = 8 }},
		{"240 Hz", func(p *Params) { p.Dt = 1.0 / 240 }},
		{"soft contacts", func(p *Params) { p.ContactHertz, p.ContactDampingRatio = 5, 0 }},
		{"heavy from 2", func(p *Params) { p.HeavyMassRatio = 2 }},
		{"no push-out", func(p *Params) { p.MaxPushOut = 0 }},
		{"fast push-out", func(p *Params) { p.MaxPushOut, p.DeepOverlap = 100, 0 }},
		{"slow bodies", func(p *Params) { p.MaxLinearSpeed = 0.5 }},
	} {
		edit := func(s *Solver, prm *Params, _ []Contact) {
			v.set(prm)
			s.BuildIslands(prm) // again, with the settings SetContact reads
		}
		for seed := uint64(1); seed <= 6; seed++ {
			s1, s2, prm := scalarThenWide(seed, edit)
			s2.Solve(parallel{2}, &prm)
			t.Run(v.name, func(t *testing.T) { matchScalar(t, seed, s1, s2) })
		}
	}
}

// TestOnePointBlocksSkipSecondPoint checks that a one-point block has no
// second point in the arena (the next block starts there) and fills the
// spare unit past the last block with NaN: were a one-point block's second
// point read, the last block's would be NaN and the others' the next
// block's numbers, and the solve would not match the scalar one.
func TestOnePointBlocksSkipSecondPoint(t *testing.T) {
	saved := wideKernel
	defer func() { wideKernel = saved }()
	poisoned := 0
	for seed := uint64(1); seed <= 10; seed++ {
		s1, s2, prm := scalarThenWide(seed, nil)
		for b := range len(s2.blockOff) - 1 {
			want := s2.blockOff[b] + 1 + int32(s2.blockPts[b])
			if s2.blockOff[b+1] != want {
				t.Fatalf("seed %d: block %d of %d points at unit %d, block %d at %d", seed, b, s2.blockPts[b], s2.blockOff[b], b+1, s2.blockOff[b+1])
			}
			if s2.blockPts[b] == 1 {
				poisoned++
			}
		}
		spare := &s2.arena[len(s2.arena)-1]
		for i := range spare {
			spare[i] = math.Float64bits(math.NaN())
		}
		s2.Solve(Serial{}, &prm)
		matchScalar(t, seed, s1, s2)
	}
	if poisoned == 0 {
		t.Fatal("no one-point blocks: the test checked nothing")
	}
}

// TestRestitutionSkipsOnlyColorsWithout solves random piles twice, once
// running the restitution pass on every colour: the results must be the
// same bits. Some piles have restitution on one contact only, others no
// restitution and a two-point impact on one contact only (which the pass
// solves at e = 0), so that most colours are skipped and the one that is
// not must still run.
func TestRestitutionSkipsOnlyColorsWithout(t *testing.T) {
	defer func(saved bool) { wideKernel, restituteAll = saved, false }(wideKernel)
	for seed := uint64(1); seed <= 12; seed++ {
		for _, wide := range []bool{false, true} {
			var res [2]*Solver
			for k, all := range []bool{false, true} {
				wideKernel, restituteAll = wide, all
				var edit func(*Solver, *Params, []Contact)
				switch seed % 4 {
				case 2:
					edit = keepOneRestitution
				case 0:
					edit = keepOneImpact
				}
				s, prm := randomPileEdit(seed, 200, 600, edit)
				s.Solve(Serial{}, &prm)
				res[k] = s
			}
			for i := range res[0].Bodies {
				if a, b := res[0].Bodies[i], res[1].Bodies[i]; a != b {
					t.Fatalf("seed %d wide %v: body %d: %+v with skipped colours, %+v with all", seed, wide, i, a, b)
				}
			}
			skipped := 0
			for k := range res[0].Coloring.Colors() {
				if !res[0].bounces[k].Load() {
					skipped++
				}
			}
			if seed%2 == 0 && skipped != res[0].Coloring.Colors()-1 {
				t.Errorf("seed %d wide %v: %d of %d colours skipped, want all but one", seed, wide, skipped,
					res[0].Coloring.Colors())
			}
		}
	}
}

// keepOneRestitution sets the restitution of every contact to 0, except
// for one coloured contact with a point that approaches fast enough to
// bounce, and slows the second point of the others below the restitution
// threshold, so that none is a two-point impact either.
func keepOneRestitution(s *Solver, prm *Params, byLink []Contact) {
	kept := false
	for li := range byLink {
		c := &byLink[li]
		bounce := c.Points[0].RelativeVelocity < -prm.RestitutionThreshold
		if kept || !bounce || !s.colored(li) {
			c.Restitution = 0
			c.Points[1].RelativeVelocity = 0
			continue
		}
		c.Restitution = 0.5
		kept = true
	}
	if !kept {
		panic("keepOneRestitution: no coloured contact approaches")
	}
}

// keepOneImpact sets the restitution of every contact to 0 and makes one
// coloured two-point contact an impact (both points approaching at 5 m/s,
// above the restitution threshold), and no other.
func keepOneImpact(s *Solver, prm *Params, byLink []Contact) {
	kept := false
	for li := range byLink {
		c := &byLink[li]
		c.Restitution = 0
		if kept || c.Count != 2 || !s.colored(li) {
			c.Points[1].RelativeVelocity = 0
			continue
		}
		c.Points[0].RelativeVelocity, c.Points[1].RelativeVelocity = -prm.RestitutionThreshold-5, -prm.RestitutionThreshold-5
		kept = true
	}
	if !kept {
		panic("keepOneImpact: no coloured two-point contact")
	}
}

// TestWideKernelsMatchReference runs the AVX2 kernels, the AVX-512 ones
// where the CPU has them, and the Go reference kernels on the same random
// blocks: they must agree bit for bit, zero signs
// included (to rounding where the compiler fuses the Go kernels' multiply-adds), on every stage variant (warm start, solve, relax, flipped) and
// for blocks of one-point and of two-point contacts.
func TestWideKernelsMatchReference(t *testing.T) {
	if !wideKernel {
		t.Skip("no AVX2 kernels on this machine")
	}
	saved := wide512
	defer func() { wide512 = saved }()
	kernels := []bool{false}
	if saved {
		kernels = append(kernels, true) // the AVX-512 kernels too
	}
	for _, k512 := range kernels {
		wide512 = k512
		t.Run(map[bool]string{false: "AVX2", true: "AVX-512"}[k512], wideKernelsMatchReference)
	}
}

func wideKernelsMatchReference(t *testing.T) {
	for seed := uint64(1); seed <= 10; seed++ {
		s, prm := randomPile(seed, 200, 600)
		s.Bodies = append(s.Bodies, BodyState{DQ: components.Identity}) // the zero row, as Solve does
		s.p = stepParams{h: prm.Dt / 4, invH: 4 / prm.Dt, maxPushOut: prm.MaxPushOut,
			deepOverlap: prm.DeepOverlap, deepFrac: prm.deepFrac(),
			soft: prm.Softness(false), stiff: prm.Softness(true), heavy: prm.HeavySoftness()}
		s.setKinematic(0.01)
		var kinds [3]int
		var softness [3]int // soft, stiff and heavy lanes
		for b := range s.blockOff {
			w := s.block(b)
			kinds[w.points]++
			for l := 0; l < lanes; l++ {
				// The random pile is one island or a few: set the heavy
				// mask of every third lane and clear the rest, so that
				// all three softnesses, and stiff lanes of heavy islands,
				// occur.
				w.heavy[l] = 0
				if (b+l)%3 == 0 {
					w.heavy[l] = -1
				}
				switch {
				case w.stiff[l] != 0:
					softness[1]++
				case w.heavy[l] != 0:
					softness[2]++
				default:
					softness[0]++
				}
			}
		}
		if kinds[1] == 0 || kinds[2] == 0 {
			t.Fatalf("seed %d: %d one-point and %d two-point blocks; the test needs both", seed, kinds[1], kinds[2])
		}
		// The AVX-512 solve takes two blocks at a time where a colour has
		// two in a row with the same point count: the test needs such pairs
		// of both counts.
		var pairs [3]int
		for c := 0; c+1 < len(s.blockStart); c++ {
			for b := s.blockStart[c]; b+1 < s.blockStart[c+1]; b++ {
				if p := s.block(int(b)).points; p == s.block(int(b)+1).points {
					pairs[p]++
				}
			}
		}
		if pairs[1] == 0 || pairs[2] == 0 {
			t.Fatalf("seed %d: %d one-point and %d two-point pairs of blocks; the test needs both", seed, pairs[1], pairs[2])
		}
		if softness[0] == 0 || softness[1] == 0 || softness[2] == 0 {
			t.Fatalf("seed %d: %v soft, stiff and heavy lanes; the test needs all three", seed, softness)
		}
		for stage := 0; stage < 5; stage++ {
			b1, b2 := slices.Clone(s.arena), slices.Clone(s.arena)
			in := func(arena []wideUnit, b int32) *wideContact {
				return (*wideContact)(unsafe.Pointer(&arena[s.blockOff[b]]))
			}
			r1, r2 := slices.Clone(s.Bodies), slices.Clone(s.Bodies)
			var wp wideParams
			s.setWideParams(&wp, stage == 1 || stage == 3, stage >= 3)
			// A kernel call takes the blocks of one colour, which share no
			// dynamic body (the AVX-512 solve runs two blocks at once).
			for c := 0; c+1 < len(s.blockStart); c++ {
				lo, hi := s.blockStart[c], s.blockStart[c+1]
				if lo == hi {
					continue
				}
				if stage == 0 {
					warmWideRef(in(b1, lo), int(hi-lo), r1)
					warmWide(in(b2, lo), int(hi-lo), r2, &wp)
				} else {
					solveWideRef(in(b1, lo), int(hi-lo), r1, &wp)
					solveWide(in(b2, lo), int(hi-lo), r2, &wp)
				}
			}
			if s.blockStart[len(s.blockStart)-1] != int32(len(s.blockOff)) {
				t.Fatalf("seed %d: the colours hold %d of %d blocks", seed, s.blockStart[len(s.blockStart)-1], len(s.blockOff))
			}
			for i := range r1 {
				if !bitsEqual(r1[i], r2[i]) && !(fusing && sameRow(&r1[i], &r2[i])) {
					t.Fatalf("seed %d stage %d: body %d: reference %+v, assembly %+v", seed, stage, i, r1[i], r2[i])
				}
			}
			for k := range s.blockOff {
				w1, w2 := in(b1, int32(k)), in(b2, int32(k))
				if !sameBits(w1, w2) && !(fusing && sameBlock(w1, w2)) {
					t.Fatalf("seed %d stage %d: block %d differs:\nreference %+v\nassembly  %+v", seed, stage, k, w1.pts[:w1.points], w2.pts[:w2.points])
				}
			}
			s.arena, s.Bodies = b1, r1
		}
	}
}

func sameRow(a, b *BodyState) bool {
	return same(a.V.X, b.V.X) && same(a.V.Y, b.V.Y) && same(a.W, b.W)
}

func sameBlock(a, b *wideContact) bool {
	for j := range a.points {
		for l := 0; l < lanes; l++ {
			p, q := &a.pts[j], &b.pts[j]
			if !same(p.normalImpulse[l], q.normalImpulse[l]) || !same(p.tangentImpulse[l], q.tangentImpulse[l]) ||
				!same(p.maxNormalImpulse[l], q.maxNormalImpulse[l]) {
				return false
			}
		}
	}
	return true
}

// sameBits compares two blocks of the arena byte for byte: the header and
// the points the block has.
func sameBits(a, b *wideContact) bool {
	n := blockBytes(a.points)
	pa := unsafe.Slice((*byte)(unsafe.Pointer(a)), n)
	pb := unsafe.Slice((*byte)(unsafe.Pointer(b)), n)
	return string(pa) == string(pb)
}

// bitsEqual compares two values of the same type byte for byte.
func bitsEqual[T any](a, b T) bool {
	n := unsafe.Sizeof(a)
	pa := unsafe.Slice((*byte)(unsafe.Pointer(&a)), n)
	pb := unsafe.Slice((*byte)(unsafe.Pointer(&b)), n)
	return string(pa) == string(pb)
}

// TestGroupsMatchOneGroup solves many separate piles, large islands that
// the solver runs in groups (group.go), on one goroutine and on three, and
// again as one group (noGroups): the results must be the same bits.
func TestGroupsMatchOneGroup(t *testing.T) {
	defer func(saved bool) { wideKernel, noGroups = saved, false }(wideKernel)
	for seed := uint64(1); seed <= 6; seed++ {
		for _, wide := range []bool{false, true} {
			wideKernel = wide
			var edit func(*Solver, *Params, []Contact)
			if seed%3 == 0 {
				edit = keepOneImpact
			}
			var ref *Solver
			for k, ex := range []Executor{Serial{}, Serial{}, parallel{3}} {
				noGroups = k == 0
				s, prm := randomPiles(seed, 60, 3000, 15000, false, 64, edit)
				if n := len(s.groups); noGroups != (n == 1) || n < 4 && !noGroups {
					t.Fatalf("seed %d: %d groups (noGroups %v)", seed, n, noGroups)
				}
				s.Solve(ex, &prm)
				if ref == nil {
					ref = s
					continue
				}
				for i := range ref.Bodies {
					if a, b := ref.Bodies[i], s.Bodies[i]; a != b {
						t.Fatalf("seed %d wide %v run %d: body %d: %+v in one group, %+v in %d", seed, wide, k, i, a, b, len(s.groups))
					}
				}
				for li := range ref.Links {
					n1, normal1, tangent1 := ref.Impulses(li)
					n2, normal2, tangent2 := s.Impulses(li)
					if n1 != n2 || normal1 != normal2 || tangent1 != tangent2 {
						t.Fatalf("seed %d wide %v run %d: link %d impulses differ", seed, wide, k, li)
					}
				}
			}
		}
	}
}

// TestGroupsZeroAllocs checks that a warm Solve of grouped large islands
// allocates nothing.
func TestGroupsZeroAllocs(t *testing.T) {
	s, prm := randomPiles(1, 60, 3000, 15000, false, 64, nil)
	if len(s.groups) < 4 {
		t.Fatalf("%d groups, want 4 or more", len(s.groups))
	}
	s.Solve(Serial{}, &prm)
	if n := testing.AllocsPerRun(5, func() { s.Solve(Serial{}, &prm) }); n != 0 {
		t.Errorf("%v allocations per warm Solve, want 0", n)
	}
}

// TestBadLanePanics checks that Solve refuses a wide lane that addresses a
// row outside Bodies (what a lane left from an earlier step, SetContact not
// called for its link, can do) with a panic on the calling goroutine: for
// one group, in halves or not, before any kernel has moved a body of the
// large islands, and for groups run side by side (the bad lane's group
// stops before its kernels), on one goroutine and on three; and that the
// next Solve, without wide lanes, does not panic again.
func TestBadLanePanics(t *testing.T) {
	if !wideKernel {
		t.Skip("the wide kernels are off")
	}
	defer func(saved int) { halvesMinLinks, wideKernel = saved, true }(halvesMinLinks)
	for _, c := range []struct {
		name   string
		halves int
		piles  int
	}{{"one group", 1 << 30, 1}, {"halves", 1, 1}, {"groups", 1 << 30, 60}} {
		for _, ex := range []Executor{Serial{}, parallel{3}} {
			halvesMinLinks = c.halves
			n, m := 300, 900
			if c.piles > 1 {
				n, m = 3000, 15000
			}
			s, prm := randomPiles(1, c.piles, n, m, c.piles == 1, 64, nil)
			if (c.piles > 1) != (len(s.groups) > 1) || (c.halves == 1) != (s.halves.colors > 0) {
				t.Fatalf("%s: %d groups, halves %d: not the layout to test", c.name, len(s.groups), s.halves.colors)
			}
			before := slices.Clone(s.Bodies)
			s.block(len(s.blockOff) - 1).offB[0] = int64(len(s.Bodies)+5) * bodyStride
			func() {
				defer func() {
					if r := recover(); r == nil || !strings.Contains(fmt.Sprint(r), "outside Bodies") {
						t.Fatalf("%s on %T: recovered %v, want the bad-lane panic", c.name, ex, r)
					}
				}()
				s.Solve(ex, &prm)
			}()
			if c.piles == 1 { // with groups, those before the bad one's may have run
				for _, i := range s.largeBodies {
					if before[i] != s.Bodies[i] {
						t.Fatalf("%s on %T: body %d of a large island moved before the panic", c.name, ex, i)
					}
				}
			}
			// The next step, solved with the scalar kernels, must not find
			// the flag still set.
			wideKernel = false
			s.BuildIslands(&prm)
			s.Solve(ex, &prm)
			wideKernel = true
		}
	}
}
