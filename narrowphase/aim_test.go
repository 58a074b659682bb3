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
// each other take the line where they come closest within the step), and
// the lever arms, point + offA
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
		const h = 1.0 / 60
		offA, offB := AimCircles(&m, ra, pa, rb, pb, dv, h)
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
			// They pass: the normal is the line of centres where they
			// come closest within h, found by a fine scan of [0, h].
			passed++
			tc, dc := 0.0, math.Inf(1)
			for i := 0; i <= 1e4; i++ {
				if ti := h * float64(i) / 1e4; dist(ti) < dc {
					tc, dc = ti, dist(ti)
				}
			}
			want := d.MulAdd(tc, dv)
			want = want.Scale(1 / want.Len())
			if m.Count != 1 || m.Normal.Sub(want).Len() > 1e-3 {
				t.Fatalf("case %d: passing circles (closest %v apart, radii %v) aimed at %v, want %v", k, best, ra+rb, m.Normal, want)
			}
			if s := m.Points[0].Separation; tc < h*(1-1e-3) && math.Abs(dv.Dot(m.Normal)) > 1e-3*dv.Len() ||
				!(s+h*dv.Dot(m.Normal) > 0) {
				t.Fatalf("case %d: passing circles: normal speed %v (want 0 when they come closest within h), gap left at h %v (want > 0)",
					k, dv.Dot(m.Normal), s+h*dv.Dot(m.Normal))
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

// TestAimBoxCircle checks AimBoxCircle against a brute-force sweep, as
// TestAimCircles does: the circle's centre, moving at dv relative to a box
// at a random pose, first comes within r of the box (the clamp distance)
// at the time found by scan and bisection. The aimed normal is the
// direction from the box's closest point to the centre then, the gap along
// it closes to 0 at that time, the box's lever arm ends at that closest
// point and the circle's is its radius along -n. Paths that miss take the
// normal where they come closest within the step.
func TestAimBoxCircle(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	hits, misses := 0, 0
	for k := 0; k < 2000; k++ {
		half := components.V(0.1+rng.Float64(), 0.1+rng.Float64())
		xfA := components.NewTransform(rng.Float64()*4-2, rng.Float64()*4-2, rng.Float64()*7)
		r := 0.05 + rng.Float64()
		// A centre outside the grown box: a random direction, far enough.
		dir := rng.Float64() * 2 * math.Pi
		pc := xfA.P.Add(components.V(math.Cos(dir), math.Sin(dir)).Scale(half.Len() + r + 0.01 + 2*rng.Float64()))
		dv := components.V(rng.Float64()*40-20, rng.Float64()*40-20)
		m := CollideBoxCircle(half, xfA, r, components.NewTransform(pc.X, pc.Y, 0), 10)
		if m.Count == 0 || !(m.Points[0].Separation > 0) {
			continue
		}
		before := m
		const h = 1.0 / 60
		offA, offB := AimBoxCircle(&m, half, xfA, r, pc, dv, h)
		closest := func(ti float64) (components.Vec2, float64) {
			c := xfA.InvApply(pc.MulAdd(ti, dv))
			q := components.V(max(-half.X, min(c.X, half.X)), max(-half.Y, min(c.Y, half.Y)))
			return q, c.Sub(q).Len()
		}
		tEnd := 4 * (pc.Sub(xfA.P).Len() + half.Len() + r) / dv.Len()
		dt := tEnd / 1e4
		hit := -1.0
		for i := 0; i <= 1e4; i++ {
			ti := float64(i) * dt
			if _, d := closest(ti); d <= r {
				lo, hi := ti-dt, ti
				for j := 0; j < 60; j++ {
					if mid := 0.5 * (lo + hi); func() bool { _, d := closest(mid); return d <= r }() {
						hi = mid
					} else {
						lo = mid
					}
				}
				hit = hi
				break
			}
		}
		if hit < 0 {
			// The path misses: the normal is where the centre comes
			// closest to the box within h (or the start normal if it
			// moves away), found by a fine scan of [0, h].
			misses++
			tc, dc := 0.0, math.Inf(1)
			for i := 0; i <= 1e4; i++ {
				if _, d := closest(h * float64(i) / 1e4); d < dc {
					tc, dc = h*float64(i)/1e4, d
				}
			}
			if tc == 0 {
				if m != before {
					t.Fatalf("case %d: a path moving away from the box was aimed: %+v", k, m)
				}
				continue
			}
			q, _ := closest(tc)
			c := xfA.InvApply(pc.MulAdd(tc, dv))
			want := xfA.R.Rotate(c.Sub(q).Scale(1 / c.Sub(q).Len()))
			if m.Normal.Sub(want).Len() > 1e-3 {
				t.Fatalf("case %d: a path that misses the box aimed at %v, want %v (closest at %v)", k, m.Normal, want, tc)
			}
			if gap := m.Points[0].Separation + h*dv.Dot(m.Normal); !(gap > 0) {
				t.Fatalf("case %d: a path that misses the box leaves a gap of %v at h, want > 0", k, gap)
			}
			continue
		}
		hits++
		q, _ := closest(hit)
		c := xfA.InvApply(pc.MulAdd(hit, dv))
		want := xfA.R.Rotate(c.Sub(q).Scale(1 / c.Sub(q).Len()))
		n, s := m.Normal, m.Points[0].Separation
		if n.Sub(want).Len() > 1e-6 {
			t.Fatalf("case %d: aimed normal %v, brute force %v (hit at %v)", k, n, want, hit)
		}
		if tt := s / -dv.Dot(n); math.Abs(tt-hit) > 1e-6*(1+hit) {
			t.Fatalf("case %d: the gap along n closes at %v, the hit is at %v", k, tt, hit)
		}
		p := m.Points[0].P
		if got := p.Add(offA); got.Sub(xfA.Apply(q)).Len() > 1e-6 {
			t.Fatalf("case %d: the box's point %v, want the closest point at the hit %v", k, got, xfA.Apply(q))
		}
		if armB := p.Add(offB).Sub(pc); armB.Add(n.Scale(r)).Len() > 1e-12*(1+pc.Len()) {
			t.Fatalf("case %d: the circle's lever arm %v, want its radius along -n %v", k, armB, n)
		}
	}
	t.Logf("%d hits, %d misses", hits, misses)
	if hits < 200 || misses < 200 {
		t.Fatalf("only %d hits and %d misses: the sample misses one kind", hits, misses)
	}
}
