package narrowphase

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tumble2d/tumble/components"
)

type pair struct {
	a, b     components.Shape
	xfA, xfB components.Transform
}

// overlappingPairs returns n random pairs of the given kinds that overlap
// (true signed distance < 0), from a fixed seed.
func overlappingPairs(n int, ka, kb components.ShapeKind) []pair {
	r := rand.New(rand.NewPCG(11, uint64(ka)<<8|uint64(kb)))
	ps := make([]pair, 0, n)
	for len(ps) < n {
		a, b := randShape(r, ka), randShape(r, kb)
		xfA, xfB := randPair(r, a, b)
		if pairSD(a, xfA, b, xfB) < 0 {
			ps = append(ps, pair{a, b, xfA, xfB})
		}
	}
	return ps
}

// TestNoAllocs checks that every kernel, reached through Collide in both
// argument orders and over overlapping, speculative and separated pairs,
// performs zero heap allocations per call (testing.AllocsPerRun, exact 0).
func TestNoAllocs(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	kinds := [...]components.ShapeKind{components.ShapeCircle, components.ShapeBox}
	var ps []pair
	for range 256 {
		a, b := randShape(r, kinds[r.IntN(2)]), randShape(r, kinds[r.IntN(2)])
		xfA, xfB := randPair(r, a, b)
		ps = append(ps, pair{a, b, xfA, xfB})
	}
	var sink int
	allocs := testing.AllocsPerRun(20, func() {
		for _, p := range ps {
			sink += Collide(p.a, p.xfA, p.b, p.xfB, 0.1).Count
			sink += Collide(p.b, p.xfB, p.a, p.xfA, 0.1).Count
		}
	})
	if allocs != 0 {
		t.Fatalf("%v allocations per run of %d pairs", allocs, 2*len(ps))
	}
	if sink == 0 {
		t.Fatal("no contacts at all")
	}
}

const benchPairs = 4096

var benchSink int

func reportPerPair(b *testing.B, n int) {
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/pair")
}

func BenchmarkCollideCircles(b *testing.B) {
	ps := overlappingPairs(benchPairs, components.ShapeCircle, components.ShapeCircle)
	b.ResetTimer()
	for b.Loop() {
		for i := range ps {
			p := &ps[i]
			benchSink += CollideCircles(p.a.Radius, p.xfA, p.b.Radius, p.xfB, 0.02).Count
		}
	}
	reportPerPair(b, len(ps))
}

func BenchmarkCollideBoxCircle(b *testing.B) {
	ps := overlappingPairs(benchPairs, components.ShapeBox, components.ShapeCircle)
	b.ResetTimer()
	for b.Loop() {
		for i := range ps {
			p := &ps[i]
			benchSink += CollideBoxCircle(p.a.Half, p.xfA, p.b.Radius, p.xfB, 0.02).Count
		}
	}
	reportPerPair(b, len(ps))
}

func BenchmarkCollideBoxes(b *testing.B) {
	ps := overlappingPairs(benchPairs, components.ShapeBox, components.ShapeBox)
	b.ResetTimer()
	for b.Loop() {
		for i := range ps {
			p := &ps[i]
			benchSink += CollideBoxes(p.a.Half, p.xfA, p.b.Half, p.xfB, 0.02).Count
		}
	}
	reportPerPair(b, len(ps))
}

// timeCollide times Collide, at a 2 cm margin, over the pairs ps and
// reports ns/pair.
func timeCollide(b *testing.B, ps []pair) {
	for b.Loop() {
		for i := range ps {
			p := &ps[i]
			benchSink += Collide(p.a, p.xfA, p.b, p.xfB, 0.02).Count
		}
	}
	reportPerPair(b, len(ps))
}

// stackedPairs returns n pairs of 1 m boxes as a settled pyramid holds them:
// one on top of the other or side by side, touching, offset along the face
// and turned by up to 1e-3 rad (a resting stack's jitter), from a fixed seed.
func stackedPairs(n int) []pair {
	r := rand.New(rand.NewPCG(17, 18))
	box := components.Box(0.5, 0.5)
	ps := make([]pair, n)
	for i := range ps {
		off := r.Float64() - 0.5
		ang := func() components.Rot { return components.NewRot((r.Float64() - 0.5) * 2e-3) }
		d := components.V(off, 1-1e-3*r.Float64())
		if i%3 == 0 { // a side neighbour: touching, no offset
			d = components.V(1-1e-3*r.Float64(), 0)
		}
		ps[i] = pair{box, box, components.Transform{R: ang()}, components.Transform{P: d, R: ang()}}
	}
	return ps
}

// BenchmarkCollideBoxesStacked times box-box on resting-stack pairs (two
// clipped points each), the bulk of large_pyramid and many_pyramids.
func BenchmarkCollideBoxesStacked(b *testing.B) {
	ps := stackedPairs(benchPairs)
	timeCollide(b, ps)
}

// BenchmarkCollideBoxesHovering times box-box on the pairs of
// BenchmarkCollideBoxesStacked moved apart by up to 1 cm, within the 2 cm
// margin: the separated case, which finds the closest features of the two
// edges (speculative contacts; tumbler's boxes have many).
func BenchmarkCollideBoxesHovering(b *testing.B) {
	ps := stackedPairs(benchPairs)
	r := rand.New(rand.NewPCG(19, 20))
	for i := range ps {
		p := &ps[i]
		d := p.xfB.P
		gap := 1e-3 + 1e-2*r.Float64()
		if i%3 == 0 {
			d.X += gap
		} else {
			d.Y += gap
		}
		p.xfB.P = d
	}
	timeCollide(b, ps)
}

// BenchmarkRayCast reports ns per segment-shape test, for segments aimed
// at random circles and boxes (about half hit).
func BenchmarkRayCast(b *testing.B) {
	r := rand.New(rand.NewPCG(8, 8))
	type ray struct {
		s    components.Shape
		xf   components.Transform
		o, d components.Vec2
	}
	rays := make([]ray, 1024)
	for i := range rays {
		s := components.Circle(0.5)
		if i%2 == 1 {
			s = components.Box(0.5, 0.3)
		}
		xf := components.NewTransform(0, 0, r.Float64()*math.Pi)
		o := components.V(4*r.Float64()-2, 4*r.Float64()-2).Add(components.V(3, 0))
		rays[i] = ray{s, xf, o, components.V(-6, 2*r.Float64()-1)}
	}
	i := 0
	for b.Loop() {
		rr := &rays[i&1023]
		i++
		RayCast(rr.s, rr.xf, rr.o, rr.d)
	}
}
