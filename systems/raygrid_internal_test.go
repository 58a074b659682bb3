package systems

import (
	"math/rand/v2"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/narrowphase"
)

// rayWorld is a world without gravity, initialised, finalised with t.
func rayWorld(t *testing.T) (*Physics, *arche.World) {
	cfg := DefaultConfig()
	cfg.Gravity = components.Vec2{}
	return internalWorld(t, cfg)
}

func addStatic(t *testing.T, w *arche.World, s components.Shape, x, y float64) arche.Entity {
	d := ecs.DefaultBodyDef()
	d.Type, d.Shape, d.Position = components.Static, s, components.V(x, y)
	e, err := ecs.NewBody(w, d)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestRayGridMarks: bodies of 1.1 m among circles of 1 cm home at a level
// of their own, marking a few cells each (with one level for all, each
// marked 225, and 4 000 of them 419 MB of marks); the marks of the static
// bodies are kept from tick to tick while only a moving body changes; the
// walk starts at or above every home.
func TestRayGridMarks(t *testing.T) {
	p, w := rayWorld(t)
	r := rand.New(rand.NewPCG(1, 1))
	for range 3000 {
		addStatic(t, w, components.Circle(0.005), 50*r.Float64(), 50*r.Float64())
	}
	for range 2000 {
		addStatic(t, w, components.Box(0.55, 0.55), 50*r.Float64(), 50*r.Float64())
	}
	d := ecs.DefaultBodyDef()
	d.Shape, d.Position, d.LinearVelocity = components.Circle(0.1), components.V(25, 25), components.V(1, 0)
	if _, err := ecs.NewBody(w, d); err != nil {
		t.Fatal(err)
	}
	marks := 0
	for tick := 0; tick < 3; tick++ {
		p.Update(w)
		p.CastRay(components.V(-1, 25), components.V(100, 3), nil)
		g := &p.query.rays
		if g.frz.n > 4*5000 {
			t.Fatalf("tick %d: %d marks for 5 000 static bodies", tick, g.frz.n)
		}
		if tick > 0 && g.frzMarks != marks {
			t.Fatalf("tick %d: the static bodies' marks were made again", tick)
		}
		marks = g.frzMarks
		q := &p.query
		for i := range q.rows() {
			rows, j := q.row(int32(i))
			if l, _, _, _, _ := g.home(rows.aabbs[j]); l >= g.levels {
				t.Fatalf("row %d homes at level %d, the walk starts at %d", i, l, g.levels-1)
			}
		}
	}
}

// TestRayFromFarAway: rays from up to 1e6 m away aimed at a box's corners
// hit it as the kernel does, and a ray from 3e17 m away, whose fractions
// along the whole segment could not tell the cells apart, returns.
func TestRayFromFarAway(t *testing.T) {
	p, w := rayWorld(t)
	box := components.Box(0.5, 0.5)
	b := addStatic(t, w, box, 3.3, 1.7)
	p.Update(w)
	xf := components.Transform{P: components.V(3.3, 1.7), R: components.Identity}
	r := rand.New(rand.NewPCG(2, 2))
	for k := range 4000 {
		target := components.V(3.3+[]float64{-0.5, 0.5}[k%2], 1.7+[]float64{-0.5, 0.5}[(k/2)%2])
		o := target.Add(components.V(2e6*(r.Float64()-0.5), 2e6*(r.Float64()-0.5)))
		d := target.Sub(o).Scale(1.5)
		_, _, want := narrowphase.RayCast(box, xf, o, d)
		if h, ok := p.CastRay(o, d, nil); ok != want || ok && h.Entity != b {
			t.Fatalf("ray %d from %v: hit %v, the kernel %v", k, o, ok, want)
		}
	}
	p2, w2 := rayWorld(t)
	addStatic(t, w2, components.Box(1, 1), 0, 3)
	addStatic(t, w2, components.Box(1, 1), 0, -3)
	addStatic(t, w2, components.Box(1, 1), 1000, 3)
	p2.Update(w2)
	if h, ok := p2.CastRay(components.V(-3e17, 0.5), components.V(6e17, 0), nil); ok {
		t.Fatalf("a ray between the boxes hit %+v", h)
	}
}

// TestRayFarSmallBody: a 2 cm box 1e15 m out, past 2^50 cells of 16 cm,
// is found by a ray beside it, as the kernel finds it (a review's probe:
// the marks above its clamped cell were far from it, and the walk never
// went down to it).
func TestRayFarSmallBody(t *testing.T) {
	for _, x := range []float64{1e14, 2e14, 1e15} {
		p, w := rayWorld(t)
		addStatic(t, w, components.Box(0.01, 0.01), 0, 0)
		far := addStatic(t, w, components.Box(0.01, 0.01), x, x)
		p.Update(w)
		if h, ok := p.CastRay(components.V(x, x-50), components.V(0, 100), nil); !ok || h.Entity != far {
			t.Fatalf("x %g: %+v %v, want the far box", x, h, ok)
		}
	}
}
