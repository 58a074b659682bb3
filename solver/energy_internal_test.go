package solver

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tumble2d/tumble/components"
)

// TestLimitRestMeetsTheBound gives random bodies random velocities before
// and after a restitution pass and random bounds, and checks limitRest: it
// changes nothing when the energy after the pass is within the bound;
// otherwise every body ends on the line from its velocity before to its
// velocity after, at the same fraction a in [0, 1), with the kinetic energy
// at the bound (to 1e-9) or, when even a = 0 exceeds it, at a = 0. Half the
// trials measure the energies in a moving frame (a kinematic platform's).
func TestLimitRestMeetsTheBound(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	uni := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	limited := 0
	for trial := 0; trial < 2000; trial++ {
		n := 1 + r.IntN(6)
		s := &Solver{Sims: make([]BodySim, n), Bodies: make([]BodyState, n), rest: make([]restRow, n)}
		rows := make([]int32, n)
		for i := range n {
			rows[i] = int32(i)
			s.Sims[i] = BodySim{Kind: KindDynamic, InvMass: 1 / uni(0.1, 10), InvInertia: 1 / uni(0.01, 5)}
			if r.IntN(5) == 0 {
				s.Sims[i].InvInertia = 0 // fixed rotation
			}
			s.Bodies[i] = BodyState{V: components.V(uni(-5, 5), uni(-5, 5)), W: uni(-3, 3)}
		}
		u := components.Vec2{}
		if r.IntN(2) == 0 {
			u = components.V(uni(-3, 3), uni(-3, 3)) // the frame of a moving platform
		}
		kb := s.kinetic(rows, u)
		before := make([]BodyState, n)
		copy(before, s.Bodies)
		for i := range n {
			s.rest[i] = restRow{v: [2]float64{s.Bodies[i].V.X, s.Bodies[i].V.Y}, w: s.Bodies[i].W}
			s.Bodies[i].V = s.Bodies[i].V.Add(components.V(uni(-4, 4), uni(-4, 4)))
			s.Bodies[i].W += uni(-3, 3)
		}
		after := make([]BodyState, n)
		copy(after, s.Bodies)
		ka := s.kinetic(rows, u)
		k0 := uni(0, 2) * kb
		w := uni(-0.2, 0.2) * kb
		bound := max(kb, k0+w)
		s.limitRest(rows, u, k0, kb, w)
		if !(ka > bound*(1+energyTol)) {
			for i := range n {
				if s.Bodies[i] != after[i] {
					t.Fatalf("trial %d: body %d changed although the energy %.6g is within the bound %.6g", trial, i, ka, bound)
				}
			}
			continue
		}
		limited++
		// The fraction from one body's largest change.
		a, best := 0.0, 0.0
		for i := range n {
			if d := math.Abs(after[i].V.X - before[i].V.X); d > best {
				a, best = (s.Bodies[i].V.X-before[i].V.X)/(after[i].V.X-before[i].V.X), d
			}
		}
		if !(a >= -1e-12 && a < 1) {
			t.Fatalf("trial %d: fraction %v outside [0, 1)", trial, a)
		}
		for i := range n {
			want := before[i].V.X + a*(after[i].V.X-before[i].V.X)
			if math.Abs(s.Bodies[i].V.X-want) > 1e-9 {
				t.Fatalf("trial %d: body %d at vx %v, want %v: not the same fraction for every body", trial, i, s.Bodies[i].V.X, want)
			}
		}
		if k := s.kinetic(rows, u); math.Abs(k-bound) > 1e-9*bound && !(a == 0 && k <= bound*(1+1e-9)) {
			t.Fatalf("trial %d: kinetic energy %.12g after the limit, want the bound %.12g (a = %v)", trial, k, bound, a)
		}
	}
	if limited < 500 {
		t.Errorf("only %d of 2000 trials needed the limit", limited)
	}
}

// TestIslandFrame checks the frame in which the island bounds hold: the
// velocity shared by every static and kinematic side of the links, or
// none when they move apart, one turns, or a moving kinematic body meets a
// static one; and that only an island with no such side is free.
func TestIslandFrame(t *testing.T) {
	v := components.V(0.5, -1)
	s := &Solver{Bodies: []BodyState{
		{},                         // 0: dynamic
		{V: v},                     // 1: kinematic moving at v
		{V: v},                     // 2: kinematic moving at v
		{V: components.V(0.5, -2)}, // 3: kinematic moving otherwise
		{V: v, W: 0.1},             // 4: kinematic turning
		{},                         // 5: kinematic at rest
	}}
	// Links 0-5: the dynamic body 0 against itself, against a static
	// body, and against the kinematic rows 1, 2, 3, 4 and 5.
	s.Links = []Link{
		{A: 0, KindA: KindDynamic, B: 0, KindB: KindDynamic},
		{A: 0, KindA: KindDynamic, B: -1, KindB: KindStatic},
	}
	kin := func(b int32) int32 {
		s.Links = append(s.Links, Link{A: 0, KindA: KindDynamic, B: b, KindB: KindKinematic})
		return int32(len(s.Links) - 1)
	}
	static, k1, k2, k3, k4, k5 := int32(1), kin(1), kin(2), kin(3), kin(4), kin(5)
	for _, c := range []struct {
		name  string
		links []int32
		u     components.Vec2
		ok    bool
	}{
		{"dynamic only", []int32{0}, components.Vec2{}, true},
		{"static", []int32{static}, components.Vec2{}, true},
		{"platform", []int32{k1}, v, true},
		{"two platforms together", []int32{k1, k2}, v, true},
		{"two platforms apart", []int32{k1, k3}, v, false},
		{"turning", []int32{k4}, components.Vec2{}, false},
		{"platform and static", []int32{k1, static}, v, false},
		{"resting kinematic and static", []int32{k5, static}, components.Vec2{}, true},
	} {
		u, anchored, ok := s.islandFrame(c.links)
		if ok != c.ok || (ok && u != c.u) {
			t.Errorf("%s: frame %v ok %v, want %v ok %v", c.name, u, ok, c.u, c.ok)
		}
		if free := c.name == "dynamic only"; ok && anchored == free {
			t.Errorf("%s: anchored %v", c.name, anchored)
		}
	}
}
