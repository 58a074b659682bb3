package bench

import (
	"math"
	"math/rand/v2"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
)

// BenchmarkQueries runs the scenes with the most bodies for 120 ticks and
// then, between ticks as a game would, casts rays of 20 m in random
// directions from random points of the bodies' bounds (ns/op per ray), and
// asks for the bodies in 4 x 4 m regions there (ns/op per region). The
// index that the first query of a tick builds is excluded: see
// BenchmarkQueries in package systems for its cost.
//
//	go test -run '^$' -bench Queries ./bench
func BenchmarkQueries(b *testing.B) {
	for _, name := range []string{"large_pyramid", "many_pyramids", "circle_rain", "mixed_pile", "tumbler"} {
		sc, err := Lookup(name)
		if err != nil {
			b.Fatal(err)
		}
		sim, err := NewSim(sc, Options{Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		for range 120 {
			if err := sim.Step(); err != nil {
				b.Fatal(err)
			}
		}
		lo, hi := bounds(sim.World)
		r := rand.New(rand.NewPCG(1, 1))
		at := func() components.Vec2 {
			return components.V(lo.X+(hi.X-lo.X)*r.Float64(), lo.Y+(hi.Y-lo.Y)*r.Float64())
		}
		sim.Physics.CastRay(lo, hi.Sub(lo), nil) // builds the tick's index
		b.Run(name+"/ray", func(b *testing.B) {
			hits := 0
			for b.Loop() {
				a := 2 * math.Pi * r.Float64()
				if _, ok := sim.Physics.CastRay(at(), components.V(20*math.Cos(a), 20*math.Sin(a)), nil); ok {
					hits++
				}
			}
			b.ReportMetric(float64(hits)/float64(b.N), "hits/ray")
		})
		b.Run(name+"/region", func(b *testing.B) {
			var out []arche.Entity
			n := 0
			for b.Loop() {
				c := at()
				out = sim.Physics.OverlapAABB(components.AABB{Min: c.Sub(components.V(2, 2)), Max: c.Add(components.V(2, 2))}, nil, out[:0])
				n += len(out)
			}
			b.ReportMetric(float64(n)/float64(b.N), "bodies/region")
		})
		sim.Close()
	}
}

// bounds returns the box of the bodies' centres.
func bounds(w *arche.World) (lo, hi components.Vec2) {
	lo, hi = components.V(math.Inf(1), math.Inf(1)), components.V(math.Inf(-1), math.Inf(-1))
	f := generic.NewFilter1[components.Transform]()
	q := f.Query(w)
	for q.Next() {
		p := q.Get().P
		lo, hi = lo.Min(p), hi.Max(p)
	}
	return lo, hi
}
