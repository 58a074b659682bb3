package narrowphase

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tumble2d/tumble/components"
)

var kinds = [...]components.ShapeKind{components.ShapeCircle, components.ShapeBox}

// TestPropertyDistance checks Distance against the oracle's signed distance
// for every pair of kinds, and that moving b back by d along n makes the
// shapes touch: n is the direction of the closest points.
func TestPropertyDistance(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	for i := range 40000 {
		a, b := randShape(r, kinds[r.IntN(2)]), randShape(r, kinds[r.IntN(2)])
		xfA, xfB := randPair(r, a, b)
		sd := pairSD(a, xfA, b, xfB)
		d, n := Distance(a, xfA, b, xfB)
		if math.Abs(d-sd) > relTol(sd) {
			t.Errorf("pair %d (%v vs %v): distance %.15g, oracle %.15g", i, a.Kind, b.Kind, d, sd)
			continue
		}
		if math.Abs(n.Len()-1) > unitTol {
			t.Errorf("pair %d: |n| = %v", i, n.Len())
		}
		if sd > 1e-6 {
			back := xfB
			back.P = back.P.MulAdd(-d, n)
			if got := pairSD(a, xfA, b, back); math.Abs(got) > 1e-9 {
				t.Errorf("pair %d (%v vs %v): moved back by d along n, the gap is %v", i, a.Kind, b.Kind, got)
			}
		}
	}
}

// TestDistanceCrossedBoxes: two long boxes crossed like a plus sign overlap
// with no vertex of either inside the other.
func TestDistanceCrossedBoxes(t *testing.T) {
	a, b := components.Box(2, 0.1), components.Box(0.1, 2)
	d, _ := Distance(a, components.NewTransform(0, 0, 0), b, components.NewTransform(0, 0, 0))
	if !(d <= -0.1+1e-12) {
		t.Fatalf("crossed boxes: distance %v, want -0.2 (overlap)", d)
	}
}

// randSweep returns a sweep of a that starts clear of b (by 0 to 2 m) and
// heads towards b's side, spread over +-60 degrees, covering up to 12 m, and
// turning up to a full turn either way in a third of the sweeps.
func randSweep(r *rand.Rand, a, b components.Shape, xfB components.Transform) Sweep {
	for {
		ang := 2 * math.Pi * r.Float64()
		dist := a.MaxExtent() + b.MaxExtent() + 2*r.Float64()
		p := xfB.P.Add(components.V(dist*math.Cos(ang), dist*math.Sin(ang)))
		sw := Sweep{P: p, R: components.NewRot(2*math.Pi*r.Float64() - math.Pi)}
		if pairSD(a, sw.At(0), b, xfB) <= 0.01 {
			continue
		}
		head := ang + math.Pi + (r.Float64()-0.5)*2*math.Pi/3
		l := 12 * r.Float64()
		sw.D = components.V(l*math.Cos(head), l*math.Sin(head))
		if r.IntN(3) == 0 {
			sw.Angle = (2*r.Float64() - 1) * 2 * math.Pi
		}
		return sw
	}
}

// TestPropertyTimeOfImpact checks TimeOfImpact against the oracle sampled
// along the sweep, for every pair of kinds: the fraction returned is never
// past the first contact (no sample before it comes within the target), a
// hit leaves a gap of about the target, and a miss never comes within it.
func TestPropertyTimeOfImpact(t *testing.T) {
	const (
		target  = 0.005
		samples = 4000
		eps     = 1e-9
	)
	r := rand.New(rand.NewPCG(13, 14))
	hits, early := 0, 0
	for i := range 3000 {
		a, b := randShape(r, kinds[r.IntN(2)]), randShape(r, kinds[r.IntN(2)])
		xfB := components.NewTransform(20*r.Float64()-10, 20*r.Float64()-10, 2*math.Pi*r.Float64()-math.Pi)
		sw := randSweep(r, a, b, xfB)
		toi, hit := TimeOfImpact(a, &sw, b, xfB, target)
		if !(toi >= 0 && toi <= 1) {
			t.Fatalf("sweep %d: fraction %v", i, toi)
		}
		for k := 0; k <= samples; k++ {
			u := float64(k) / samples
			if hit && u >= toi {
				break
			}
			if sd := pairSD(a, sw.At(u), b, xfB); sd < target-eps {
				t.Errorf("sweep %d (%v vs %v, hit %v at %v): at %v the gap is %v, below the target", i, a.Kind, b.Kind, hit, toi, u, sd)
				break
			}
		}
		if !hit {
			continue
		}
		hits++
		sd := pairSD(a, sw.At(toi), b, xfB)
		if sd < target-eps {
			t.Errorf("sweep %d (%v vs %v): gap %v at the hit, below the target", i, a.Kind, b.Kind, sd)
		}
		if sd > 1.25*target+eps {
			early++ // the search ran out of steps: stopped early, allowed but rare
		}
	}
	if hits < 500 {
		t.Errorf("only %d of 3000 sweeps hit: the test sweeps miss too often to test hits", hits)
	}
	if early*100 > hits {
		t.Errorf("%d of %d hits stopped more than 1.25 target short of the contact", early, hits)
	}
	t.Logf("%d hits, %d stopped early", hits, early)
}

// TestTimeOfImpactThinWall: a box and a circle that pass wholly through a
// thin wall within the sweep are stopped on the near side.
func TestTimeOfImpactThinWall(t *testing.T) {
	wall := components.Box(0.05, 2)
	xfW := components.NewTransform(0, 0, 0)
	for _, a := range []components.Shape{components.Circle(0.1), components.Box(0.1, 0.1)} {
		sw := Sweep{P: components.V(-1, 0.3), D: components.V(3, -0.5), R: components.Identity, Angle: 2}
		toi, hit := TimeOfImpact(a, &sw, wall, xfW, 0.005)
		if !hit {
			t.Fatalf("%v through a thin wall: no hit", a.Kind)
		}
		if x := sw.At(toi).P.X; x > -0.05 {
			t.Errorf("%v stopped at x = %v, past the wall's near face", a.Kind, x)
		}
		if sd := pairSD(a, sw.At(toi), wall, xfW); sd < 0.005-1e-9 || sd > 0.00625+1e-9 {
			t.Errorf("%v stopped %v from the wall, want 0.005..0.00625", a.Kind, sd)
		}
	}
}

// TestTimeOfImpactTouchingAtStart: a pair already within the target returns
// fraction 0 and a hit, so the caller can tell it apart.
func TestTimeOfImpactTouchingAtStart(t *testing.T) {
	ground := components.Box(5, 0.5)
	a := components.Box(0.5, 0.5)
	sw := Sweep{P: components.V(0, 1.001), D: components.V(3, 0), R: components.Identity}
	if toi, hit := TimeOfImpact(a, &sw, ground, components.NewTransform(0, 0, 0), 0.005); toi != 0 || !hit {
		t.Fatalf("touching at the start: (%v, %v), want (0, true)", toi, hit)
	}
}

// TestDistanceMatchesBoxCircleKernel: Distance and the box-circle manifold
// agree on the separation and the normal, on the tie cases too (a centre at
// -0 on a face's axis, a centre a subnormal distance outside the box).
func TestDistanceMatchesBoxCircleKernel(t *testing.T) {
	box, xf := components.Box(1, 0.5), components.NewTransform(0, 0, 0)
	for _, c := range []components.Vec2{{X: math.Copysign(0, -1), Y: 0.2}, {X: 0.3, Y: math.Copysign(0, -1)},
		{X: 1 + 1e-300, Y: 0}, {X: 0.5, Y: 0.5}, {X: -0.6, Y: -0.3}} {
		ball := components.Circle(0.25)
		m := CollideBoxCircle(box.Half, xf, ball.Radius, components.Transform{P: c, R: components.Identity}, 10)
		d, n := Distance(box, xf, ball, components.Transform{P: c, R: components.Identity})
		if m.Count != 1 || d != m.Points[0].Separation || n != m.Normal {
			t.Errorf("centre %v: Distance (%v, %v), kernel (%v, %v)", c, d, n, m.Points[0].Separation, m.Normal)
		}
	}
}
