package solver

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tumble2d/tumble/components"
)

// boundRig is a set of random bodies for the step bound: poses, velocities
// at the start of the step (kept by keepStart) and after the substeps.
type boundRig struct {
	s      *Solver
	rows   []int32
	before []BodyState
}

func newBoundRig(r *rand.Rand, n int) *boundRig {
	uni := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	s := &Solver{Sims: make([]BodySim, n), Bodies: make([]BodyState, n), start: make([]restRow, n)}
	g := &boundRig{s: s, rows: make([]int32, n)}
	for i := range n {
		g.rows[i] = int32(i)
		s.Sims[i] = BodySim{Kind: KindDynamic, InvMass: 1 / uni(0.1, 10), InvInertia: 1 / uni(0.01, 5),
			X: components.Transform{P: components.V(uni(-1e3, 1e3), uni(-5, 5)), R: components.Identity}}
		if r.IntN(5) == 0 {
			s.Sims[i].InvInertia = 0 // fixed rotation
		}
		s.Bodies[i] = BodyState{V: components.V(uni(-5, 5), uni(-5, 5)), W: uni(-3, 3),
			DP: components.V(uni(-0.1, 0.1), uni(-0.1, 0.1)), DQ: components.Identity}
		if s.Sims[i].InvInertia == 0 {
			s.Bodies[i].W = 0
		}
	}
	return g
}

// impulse applies the impulse p at the world point x (end-of-step poses)
// to body i, as a contact would.
func (g *boundRig) impulse(i int, p, x components.Vec2) {
	sim, st := &g.s.Sims[i], &g.s.Bodies[i]
	st.V = st.V.MulAdd(sim.InvMass, p)
	st.W += sim.InvInertia * x.Sub(sim.X.P.Add(st.DP)).Cross(p)
}

// TestLimitStepScalesBackTheChange checks the step bound (stepSums,
// stepFactor, blendApply) on random bodies with
// random velocities at the start of the step and random changes, and a
// random bound between the energy at the start and after the change.
// Anchored islands: every body ends at v0 + a (v - v0) with one a, at the
// bound. Free islands, whose changes are equal and opposite impulses at
// shared points (what contacts give): momentum and angular momentum stay
// as the changes left them (to 1e-9), the energy ends at the bound, and a
// body the changes did not touch keeps its velocity and spin exactly.
func TestLimitStepScalesBackTheChange(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	uni := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	limited := 0
	for trial := 0; trial < 2000; trial++ {
		n := 2 + r.IntN(7)
		g := newBoundRig(r, n)
		s := g.s
		anchored := r.IntN(2) == 0
		u := components.Vec2{}
		if anchored && r.IntN(2) == 0 {
			u = components.V(uni(-3, 3), uni(-3, 3))
		}
		k0 := s.keepStart(g.rows, u)
		// Changes: impulses between pairs of bodies 0..n-2; body n-1 is
		// left alone. Anchored islands also get one-sided impulses.
		for c := 0; c < 1+r.IntN(4); c++ {
			a, b := r.IntN(n-1), r.IntN(n-1)
			p := components.V(uni(-20, 20), uni(-20, 20))
			x := s.Sims[a].X.P.Add(components.V(uni(-0.5, 0.5), uni(-0.5, 0.5)))
			if anchored {
				g.impulse(a, p, x)
				continue
			}
			if a == b {
				continue
			}
			g.impulse(a, p, x)
			g.impulse(b, p.Neg(), x)
		}
		g.before = append([]BodyState(nil), s.Bodies...)
		k := s.kinetic(g.rows, u)
		if !(k > k0*1.01) {
			continue
		}
		bound := k0 + uni(0, 1)*(k-k0)
		p1, l1 := momenta(s, g.rows)
		kk, _, A, B := s.stepSums(g.rows, u)
		a, got, lim := s.stepFactor(g.rows, u, anchored, bound, k0, kk, A, B)
		if !lim {
			t.Fatalf("trial %d: energy %.9g over the bound %.9g, but not limited", trial, kk, bound)
		}
		s.blendApply(g.rows, s.start, a)
		limited++
		if math.Abs(got-s.kinetic(g.rows, u)) > 1e-12*k {
			t.Fatalf("trial %d: returned %.9g, kinetic energy %.9g", trial, got, s.kinetic(g.rows, u))
		}
		// A body with fixed rotation takes angular impulse without turning,
		// so the changes can carry angular momentum, and with it a rigid
		// turn that the untouched body shares.
		fixed := false
		for i := range n {
			fixed = fixed || s.Sims[i].InvInertia == 0
		}
		last := n - 1
		if st, b := s.Bodies[last], g.before[last]; (anchored || !fixed) && (st.V.Sub(b.V).Len() > 1e-12*(1+b.V.Len()) || math.Abs(st.W-b.W) > 1e-12*(1+math.Abs(b.W))) {
			t.Fatalf("trial %d (anchored %v): the untouched body changed: %+v from %+v", trial, anchored, s.Bodies[last], g.before[last])
		}
		if anchored {
			if math.Abs(got-bound) > 1e-9*k {
				t.Fatalf("trial %d: anchored island ends at %.9g, want the bound %.9g", trial, got, bound)
			}
			a := -1.0
			for i := range n {
				r0, st, b := &s.start[i], &s.Bodies[i], &g.before[i]
				d := b.V.Sub(components.V(r0.v[0], r0.v[1]))
				if d.Len() < 1e-6 {
					continue
				}
				ai := st.V.Sub(components.V(r0.v[0], r0.v[1])).Dot(d) / d.LenSq()
				if a < 0 {
					a = ai
				}
				want := components.V(r0.v[0], r0.v[1]).MulAdd(a, d)
				if st.V.Sub(want).Len() > 1e-9*(1+d.Len()) || math.Abs(r0.w+a*(b.W-r0.w)-st.W) > 1e-9*(1+math.Abs(b.W)) {
					t.Fatalf("trial %d: body %d is not at v0 + %.6g (v - v0): %+v", trial, i, a, st)
				}
			}
			continue
		}
		p2, l2 := momenta(s, g.rows)
		scale := 1 + p1.Len() + math.Abs(l1)
		if p2.Sub(p1).Len() > 1e-9*scale || math.Abs(l2-l1) > 1e-9*scale {
			t.Fatalf("trial %d: momentum %v -> %v, angular momentum %.12g -> %.12g", trial, p1, p2, l1, l2)
		}
		if (!fixed && math.Abs(got-bound) > 1e-9*k) || got > k*(1+1e-12) {
			t.Fatalf("trial %d: free island ends at %.9g, want the bound %.9g (%.9g before)", trial, got, bound, k)
		}
		for i := range n {
			if s.Sims[i].InvInertia == 0 && s.Bodies[i].W != 0 {
				t.Fatalf("trial %d: body %d with fixed rotation got spin %.3g", trial, i, s.Bodies[i].W)
			}
		}
	}
	if limited < 500 {
		t.Fatalf("only %d of 2000 trials reached the bound", limited)
	}
}

// momenta returns the momentum of rows and their angular momentum about the
// origin, at their poses at the end of the step.
func momenta(s *Solver, rows []int32) (p components.Vec2, l float64) {
	for _, i := range rows {
		sim, st := &s.Sims[i], &s.Bodies[i]
		m := 1 / sim.InvMass
		p = p.MulAdd(m, st.V)
		l += m * sim.X.P.Add(st.DP).Cross(st.V)
		if sim.InvInertia > 0 {
			l += st.W / sim.InvInertia
		}
	}
	return p, l
}
