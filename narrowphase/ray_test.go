package narrowphase

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tumble2d/tumble/components"
)

// TestRayCastCases pins the kernel on cases worked by hand.
func TestRayCastCases(t *testing.T) {
	circle, box := components.Circle(1), components.Box(1, 0.5)
	at := func(x, y, a float64) components.Transform { return components.NewTransform(x, y, a) }
	cases := []struct {
		name        string
		s           components.Shape
		xf          components.Transform
		o, d        vec
		hit         bool
		frac        float64
		normal      vec
		checkNormal bool
	}{
		{"circle head on", circle, at(0, 0, 0), vec{X: -4}, vec{X: 8}, true, 3.0 / 8, vec{X: -1}, true},
		{"box face", box, at(0, 0, 0), vec{X: -4}, vec{X: 8}, true, 3.0 / 8, vec{X: -1}, true},
		{"box from above", box, at(0, 0, 0), vec{Y: 2}, vec{Y: -4}, true, 1.5 / 4, vec{Y: 1}, true},
		{"box turned a quarter", box, at(0, 0, math.Pi/2), vec{X: -4}, vec{X: 8}, true, 3.5 / 8, vec{X: -1}, true},
		{"too short", circle, at(0, 0, 0), vec{X: -4}, vec{X: 2}, false, 0, vec{}, false},
		{"pointing away", box, at(0, 0, 0), vec{X: -4}, vec{X: -8}, false, 0, vec{}, false},
		{"starts inside the circle", circle, at(0, 0, 0), vec{X: 0.5}, vec{X: 8}, false, 0, vec{}, false},
		{"starts inside the box", box, at(0, 0, 0), vec{X: 0.5, Y: 0.1}, vec{X: -8}, false, 0, vec{}, false},
		{"parallel, outside the slab", box, at(0, 0, 0), vec{X: -4, Y: 0.6}, vec{X: 8}, false, 0, vec{}, false},
		{"parallel, along a face", box, at(0, 0, 0), vec{X: -4, Y: 0.5}, vec{X: 8}, true, 3.0 / 8, vec{X: -1}, true},
		{"on the surface, inwards", circle, at(0, 0, 0), vec{X: -1}, vec{X: 1}, true, 0, vec{X: -1}, true},
		{"on the surface, outwards", box, at(0, 0, 0), vec{X: -1}, vec{X: -1}, false, 0, vec{}, false},
		{"missing beside the circle", circle, at(0, 0, 0), vec{X: -4, Y: 1.01}, vec{X: 8}, false, 0, vec{}, false},
		{"zero translation", circle, at(0, 0, 0), vec{X: -4}, vec{}, false, 0, vec{}, false},
		{"NaN origin", box, at(0, 0, 0), vec{X: math.NaN()}, vec{X: 8}, false, 0, vec{}, false},
		{"infinite translation", box, at(0, 0, 0), vec{X: -4}, vec{X: math.Inf(1)}, false, 0, vec{}, false},
		{"invalid shape", components.Shape{}, at(0, 0, 0), vec{X: -4}, vec{X: 8}, false, 0, vec{}, false},
	}
	for _, c := range cases {
		frac, n, ok := RayCast(c.s, c.xf, c.o, c.d)
		if ok != c.hit {
			t.Errorf("%s: hit %v, want %v", c.name, ok, c.hit)
			continue
		}
		if !ok {
			continue
		}
		if math.Abs(frac-c.frac) > 1e-12 {
			t.Errorf("%s: fraction %v, want %v", c.name, frac, c.frac)
		}
		if c.checkNormal && n.Sub(c.normal).Len() > 1e-12 {
			t.Errorf("%s: normal %v, want %v", c.name, n, c.normal)
		}
	}
}

// TestRayCastMatchesOracle: on random circles and boxes at random poses,
// and random segments around them, the kernel agrees with a brute-force
// march along the segment on the shape's signed distance (oracle_test.go):
// a segment that starts inside misses; one whose march finds a point
// inside hits at the boundary the bisection finds (to 1e-9 of its length),
// with the outward normal the distance field's gradient gives there (away
// from corners); one whose march finds none misses, or grazes the shape
// within the march's spacing.
func TestRayCastMatchesOracle(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 9))
	const steps = 2000
	hits, misses, inside := 0, 0, 0
	for iter := 0; iter < 20000; iter++ {
		kind := components.ShapeCircle
		if iter%2 == 1 {
			kind = components.ShapeBox
		}
		s := randShape(r, kind)
		if kind == components.ShapeBox {
			s = components.Box(0.05+2.5*r.Float64(), 0.05+2.5*r.Float64())
		}
		xf := components.NewTransform(20*r.Float64()-10, 20*r.Float64()-10, 2*math.Pi*r.Float64()-math.Pi)
		ext := s.MaxExtent()
		o := xf.P.Add(vec{X: 3 * ext * (2*r.Float64() - 1), Y: 3 * ext * (2*r.Float64() - 1)})
		ang := 2 * math.Pi * r.Float64()
		if r.IntN(2) == 0 { // aim near the shape, so that half the segments reach it
			toward := xf.P.Sub(o)
			ang = math.Atan2(toward.Y, toward.X) + 0.6*(r.Float64()-0.5)
		}
		length := ext * (0.2 + 5*r.Float64())
		d := vec{X: length * math.Cos(ang), Y: length * math.Sin(ang)}
		frac, n, ok := RayCast(s, xf, o, d)
		sd := func(u float64) float64 { return shapeSD(s, xf, o.Add(d.Scale(u))) }
		tol := 1e-9 * max(1, length)

		if sd(0) < -tol {
			inside++
			if ok {
				t.Fatalf("iter %d: %v at %v, segment %v + %v starting inside: hit at %v", iter, s, xf, o, d, frac)
			}
			continue
		}
		first := -1
		for k := 1; k <= steps; k++ {
			if sd(float64(k)/steps) < 0 {
				first = k
				break
			}
		}
		if first < 0 {
			misses++
			if ok {
				// Only a graze within the march's spacing.
				if math.Abs(sd(frac)) > tol || sd(math.Min(1, frac+1.0/steps)) < -length/steps {
					t.Fatalf("iter %d: %v at %v, segment %v + %v: hit at %v (sd %v) where the march found no point inside", iter, s, xf, o, d, frac, sd(frac))
				}
			}
			continue
		}
		hits++
		lo, hi := float64(first-1)/steps, float64(first)/steps
		if sd(lo) <= 0 { // the boundary at the origin itself
			hi = lo
		}
		for range 80 {
			mid := 0.5 * (lo + hi)
			if sd(mid) < 0 {
				hi = mid
			} else {
				lo = mid
			}
		}
		if !ok {
			t.Fatalf("iter %d: %v at %v, segment %v + %v: missed, the march enters at %v", iter, s, xf, o, d, hi)
		}
		if math.Abs(frac-hi) > 1e-9 {
			t.Fatalf("iter %d: %v at %v, segment %v + %v: fraction %v, the march enters at %v", iter, s, xf, o, d, frac, hi)
		}
		p := o.Add(d.Scale(frac))
		if math.Abs(n.Len()-1) > 1e-12 || n.Dot(d) > 0 {
			t.Fatalf("iter %d: normal %v is not a unit vector against the segment %v", iter, n, d)
		}
		// The gradient of the distance field, where it is smooth: not within
		// 1e-6 of a box corner.
		if kind == components.ShapeBox {
			corner := false
			for _, v := range worldBox(s.Half, xf) {
				corner = corner || v.Sub(p).Len() < 1e-6
			}
			if corner {
				continue
			}
		}
		const h = 1e-7
		g := vec{X: shapeSD(s, xf, p.Add(vec{X: h})) - shapeSD(s, xf, p.Sub(vec{X: h})),
			Y: shapeSD(s, xf, p.Add(vec{Y: h})) - shapeSD(s, xf, p.Sub(vec{Y: h}))}.Scale(0.5 / h)
		if g.Sub(n).Len() > 1e-5 {
			t.Fatalf("iter %d: %v at %v: normal %v at %v, the distance field's gradient %v", iter, s, xf, n, p, g)
		}
	}
	if hits < 5000 || misses < 3000 || inside < 500 {
		t.Fatalf("%d hits, %d misses, %d starts inside: the sample tried too little", hits, misses, inside)
	}
}

// TestRayCastFarFromTheCircle: a segment 2e6 m long passing 1.2 radii
// beside a 1 cm circle misses it, and one passing 0.8 radii beside it
// meets it where the circle's boundary is (to 1e-9 m), though the origin's
// distance squared is 1e12 and the radius squared 1e-4.
func TestRayCastFarFromTheCircle(t *testing.T) {
	c := components.Circle(0.01)
	if f, _, ok := RayCast(c, components.Transform{R: components.Identity}, vec{X: -1e6, Y: 0.012}, vec{X: 2e6}); ok {
		t.Errorf("a segment 1.2 r beside the circle hit it at %v", f)
	}
	f, n, ok := RayCast(c, components.Transform{R: components.Identity}, vec{X: -1e6, Y: 0.008}, vec{X: 2e6})
	if !ok {
		t.Fatal("a segment 0.8 r beside the circle missed it")
	}
	p := vec{X: -1e6 + f*2e6, Y: 0.008}
	if math.Abs(p.X+0.006) > 1e-9 || n.Sub(vec{X: -0.6, Y: 0.8}).Len() > 1e-6 {
		t.Errorf("hit at %v with normal %v, want (-0.006, 0.008) and (-0.6, 0.8)", p, n)
	}
}

// TestRayCastExtremeTranslations: a translation of 1e155 m, whose squared
// length overflows, still meets a circle, where the box kernel met it.
func TestRayCastExtremeTranslations(t *testing.T) {
	xf := components.Transform{R: components.Identity}
	for _, s := range []components.Shape{components.Circle(1), components.Box(1, 1)} {
		if f, n, ok := RayCast(s, xf, vec{X: -4}, vec{X: 1e155}); !ok || math.Abs(f*1e155-3) > 1e-9 || n != (vec{X: -1}) {
			t.Errorf("%v, a translation of 1e155: %v %v %v", s.Kind, f, n, ok)
		}
	}
}
