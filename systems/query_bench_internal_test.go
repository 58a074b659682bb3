package systems

import (
	"math"
	"math/rand/v2"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
)

// queryBenchWorld is a pile of 10 000 boxes and circles of 0.2-1 m in a
// 200 m wide box, stepped 60 ticks.
func queryBenchWorld(b *testing.B) (*Physics, *arche.World) {
	p, err := New(DefaultConfig())
	if err != nil {
		b.Fatal(err)
	}
	w := arche.NewWorld()
	p.Initialize(&w)
	b.Cleanup(func() { p.Finalize(&w) })
	ground := ecs.DefaultBodyDef()
	ground.Type, ground.Shape, ground.Position = components.Static, components.Box(100, 0.5), components.V(0, -0.5)
	if _, err := ecs.NewBody(&w, ground); err != nil {
		b.Fatal(err)
	}
	r := rand.New(rand.NewPCG(1, 1))
	for i := range 10000 {
		d := ecs.DefaultBodyDef()
		d.Position = components.V(-99+198*r.Float64(), 0.5+20*r.Float64())
		if i%2 == 0 {
			d.Shape = components.Circle(0.1 + 0.4*r.Float64())
		} else {
			d.Shape, d.Angle = components.Box(0.1+0.4*r.Float64(), 0.1+0.4*r.Float64()), r.Float64()*math.Pi
		}
		if _, err := ecs.NewBody(&w, d); err != nil {
			b.Fatal(err)
		}
	}
	for range 60 {
		p.Update(&w)
	}
	return p, &w
}

// BenchmarkQueries reports the cost of the query index, built once per
// tick that queries (ns per moving body), of the rays' pyramid of cells,
// built at the tick's first ray (ns per body), of a ray of 20 m in a random
// direction, of a ray across the whole world at a random height (most
// pass above the pile, which lies within 20 m of the ground), and of a
// region query of 4 x 4 m, on 10 000 bodies.
func BenchmarkQueries(b *testing.B) {
	p, _ := queryBenchWorld(b)
	r := rand.New(rand.NewPCG(2, 2))
	b.Run("index", func(b *testing.B) {
		for b.Loop() {
			p.query.built = false
			p.index()
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(p.query.mov.ents)), "ns/moving_body")
	})
	b.Run("ray-index", func(b *testing.B) {
		q := p.index()
		for b.Loop() {
			q.rays.build(q)
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(q.rows()), "ns/body")
	})
	b.Run("ray", func(b *testing.B) {
		hits := 0
		for b.Loop() {
			o := components.V(-99+198*r.Float64(), 25*r.Float64())
			a := 2 * math.Pi * r.Float64()
			if _, ok := p.CastRay(o, components.V(20*math.Cos(a), 20*math.Sin(a)), nil); ok {
				hits++
			}
		}
		b.ReportMetric(float64(hits)/float64(b.N), "hits/ray")
	})
	b.Run("ray-across", func(b *testing.B) {
		hits := 0
		for b.Loop() {
			y := 40 * r.Float64()
			if _, ok := p.CastRay(components.V(-150, y), components.V(300, 0), nil); ok {
				hits++
			}
		}
		b.ReportMetric(float64(hits)/float64(b.N), "hits/ray")
	})
	b.Run("region", func(b *testing.B) {
		var out []arche.Entity
		n := 0
		for b.Loop() {
			c := components.V(-99+198*r.Float64(), 25*r.Float64())
			out = p.OverlapAABB(components.AABB{Min: c.Sub(components.V(2, 2)), Max: c.Add(components.V(2, 2))}, nil, out[:0])
			n += len(out)
		}
		b.ReportMetric(float64(n)/float64(b.N), "bodies/query")
	})
}
