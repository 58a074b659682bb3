package narrowphase

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tumble2d/tumble/components"
)

// TestAimCircles checks AimCircles against a brute-force sweep: for random
// pairs of circles apart, moving at random relative velocities, it steps
// the relative motion finely to find where the circles first touch, and
// compares the aimed normal with the line of centres there. It also checks the two promises the solver relies on: the gap
// along the new normal closes to 0 exactly at the touch (circles that pass
// each other keep the start normal), and the lever arms, point + offA
// from A's centre and point + offB from B's, are the radii along the normal.
func TestAimCircles(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	aimed, passed := 0, 0
	for k := 0; k < 2000; k++ {
		ra, rb := 0.1+rng.Float64(), 0.1+rng.Float64()
		pa := components.V(rng.Float64()*4-2, rng.Float64()*4-2)
		dir := rng.Float64() * 2 * math.Pi
		gap := 0.01 + 2*rng.Float64()
		pb := pa.Add(components.V(math.Cos(dir), math.Sin(dir)).Scale(ra + rb + gap))
		dv := components.V(rng.Float64()*40-20, rng.Float64()*40-20)
		m := CollideCircles(ra, components.NewTransform(pa.X, pa.Y, 0), rb, components.NewTransform(pb.X, pb.Y, 0), 10)
		before := m
		offA, offB := AimCircles(&m, ra, pa, rb, pb, dv)
		d := pb.Sub(pa)
		if d.Dot(dv) >= 0 {
			if m != before || offA != (components.Vec2{}) || offB != (components.Vec2{}) {
				t.Fatalf("case %d: circles moving apart were aimed: %+v", k, m)
			}
			continue
		}
		// Brute force: scan the distance of the centres along the relative
		// motion in 10 000 steps; bisect the step where it first falls to
		// R, or take the scan's closest approach.
		dist := func(ti float64) float64 { return d.MulAdd(ti, dv).Len() }
		tEnd := 4 * (d.Len() + ra + rb) / dv.Len()
		dt := tEnd / 1e4
		hit, best := -1.0, math.Inf(1)
		for i := 0; i <= 1e4; i++ {
			ti := float64(i) * dt
			if l := dist(ti); l <= ra+rb {
				lo, hi := ti-dt, ti
				for j := 0; j < 60; j++ {
					if mid := 0.5 * (lo + hi); dist(mid) <= ra+rb {
						hi = mid
					} else {
						lo = mid
					}
				}
				hit = hi
				break
			} else {
				best = min(best, l)
			}
		}
		if hit < 0 {
			passed++
			if m != before || offA != (components.Vec2{}) || offB != (components.Vec2{}) {
				t.Fatalf("case %d: circles that pass each other (closest %v apart, radii %v) were aimed: %+v",
					k, best, ra+rb, m)
			}
			continue
		}
		aimed++
		n, s := m.Normal, m.Points[0].Separation
		if m.Count != 1 || math.Abs(n.Len()-1) > 1e-12 {
			t.Fatalf("case %d: manifold %+v, want one point and a unit normal", k, m)
		}
		want := d.MulAdd(hit, dv)
		want = want.Scale(1 / want.Len())
		if n.Sub(want).Len() > 1e-9 {
			t.Fatalf("case %d: aimed normal %v, brute force %v (touch at %v)", k, n, want, hit)
		}
		tt := s / -dv.Dot(n) // the time the gap along n takes to close
		if l := dist(tt); math.Abs(l-(ra+rb)) > 1e-9 {
			t.Fatalf("case %d: the gap along n closes at %v, where the centres are %v apart, want %v", k, tt, l, ra+rb)
		}
		p := m.Points[0].P
		if armA := p.Add(offA).Sub(pa); armA.Sub(n.Scale(ra)).Len() > 1e-12*(1+ra) {
			t.Fatalf("case %d: A's lever arm %v, want its radius along n %v", k, armA, n)
		}
		if armB := p.Add(offB).Sub(pb); armB.Add(n.Scale(rb)).Len() > 1e-12*(1+d.Len()) {
			t.Fatalf("case %d: B's lever arm %v, want its radius along -n %v", k, armB, n)
		}
	}
	t.Logf("%d touching, %d passing", aimed, passed)
	if aimed < 200 || passed < 200 {
		t.Fatalf("only %d touching and %d passing cases: the sample misses one kind", aimed, passed)
	}
}
