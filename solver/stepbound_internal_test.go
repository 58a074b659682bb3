package solver

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tumble2d/tumble/components"
)

// TestLimitStepKeepsMomenta gives random bodies random poses and velocities
// and a random bound below their kinetic energy, and checks limitStep. A
// free island must keep its momentum and its angular momentum about the
// origin (to 1e-9), and end at the bound, or at the energy of its
// translation and rigid rotation when the bound is below that. An anchored
// island must end at the bound (0 when the bound is negative) with every
// velocity relative to the frame, and every spin, scaled by one factor.
// Bodies with fixed rotation keep their spin.
func TestLimitStepKeepsMomenta(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	uni := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	for trial := 0; trial < 2000; trial++ {
		n := 1 + r.IntN(8)
		s := &Solver{Sims: make([]BodySim, n), Bodies: make([]BodyState, n)}
		rows := make([]int32, n)
		for i := range n {
			rows[i] = int32(i)
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
		anchored := r.IntN(2) == 0
		u := components.Vec2{}
		if anchored && r.IntN(2) == 0 {
			u = components.V(uni(-3, 3), uni(-3, 3))
		}
		before := append([]BodyState(nil), s.Bodies...)
		k := s.kinetic(rows, u)
		bound := uni(-0.2, 1) * k
		p0, l0 := momenta(s, rows)
		got := s.limitStep(rows, u, anchored, bound, k)
		if math.Abs(got-s.kinetic(rows, u)) > 1e-12*k {
			t.Fatalf("trial %d: returned %.9g, kinetic energy %.9g", trial, got, s.kinetic(rows, u))
		}
		if anchored {
			want := max(bound, 0)
			if math.Abs(got-want) > 1e-9*k {
				t.Fatalf("trial %d: anchored island ends at %.9g, want %.9g", trial, got, want)
			}
			a := math.Sqrt(want / k)
			for i := range n {
				v := u.Add(before[i].V.Sub(u).Scale(a))
				if v.Sub(s.Bodies[i].V).Len() > 1e-9 || math.Abs(a*before[i].W-s.Bodies[i].W) > 1e-9 {
					t.Fatalf("trial %d: body %d not scaled by %.6g: %+v from %+v", trial, i, a, s.Bodies[i], before[i])
				}
			}
			continue
		}
		p1, l1 := momenta(s, rows)
		scale := 1 + p0.Len() + math.Abs(l0)
		if p1.Sub(p0).Len() > 1e-9*scale || math.Abs(l1-l0) > 1e-9*scale {
			t.Fatalf("trial %d: momentum %v -> %v, angular momentum %.12g -> %.12g", trial, p0, p1, l0, l1)
		}
		if got > max(bound, 0)*(1+1e-9)+1e-12 {
			// Only the translation and the rigid rotation may be left.
			for i := range n {
				for j := range n {
					// In a rigid motion every pair keeps its distance: the
					// relative velocity is perpendicular to the offset.
					if i >= j {
						continue
					}
					d := s.Sims[j].X.P.Add(s.Bodies[j].DP).Sub(s.Sims[i].X.P.Add(s.Bodies[i].DP))
					dv := s.Bodies[j].V.Sub(s.Bodies[i].V)
					if math.Abs(d.Dot(dv)) > 1e-6*(1+d.Len()*dv.Len()) {
						t.Fatalf("trial %d: energy %.9g above the bound %.9g, but bodies %d and %d still move apart (%.3g)", trial, got, bound, i, j, d.Dot(dv))
					}
				}
			}
		}
		if got > k*(1+1e-12) {
			t.Fatalf("trial %d: energy rose from %.9g to %.9g", trial, k, got)
		}
		for i := range n {
			if s.Sims[i].InvInertia == 0 && s.Bodies[i].W != 0 {
				t.Fatalf("trial %d: body %d with fixed rotation got spin %.3g", trial, i, s.Bodies[i].W)
			}
		}
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
