package systems_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/narrowphase"
	"github.com/tumble2d/tumble/systems"
)

// queryScene is a closed box with a kinematic paddle turning in it and
// random boxes and circles, some created asleep, stepped n ticks.
func queryScene(t *testing.T, workers, n int, seed uint64) *sim {
	s := newSim(t, func(c *systems.Config) { c.Workers = workers })
	for _, w := range [][4]float64{{0, -0.5, 10, 0.5}, {-10.5, 8, 0.5, 8}, {10.5, 8, 0.5, 8}} {
		s.add(staticBox(w[0], w[1], w[2], w[3], 0))
	}
	paddle := staticBox(0, 6, 2, 0.2, 0.3)
	paddle.Type = components.Kinematic
	paddle.AngularVelocity = 1
	s.add(paddle)
	r := rand.New(rand.NewPCG(seed, 1))
	for i := range 150 {
		var d ecs.BodyDef
		if i%2 == 0 {
			d = dynCircle(-9+18*r.Float64(), 1+12*r.Float64(), 0.1+0.4*r.Float64())
		} else {
			d = dynBox(-9+18*r.Float64(), 1+12*r.Float64(), 0.1+0.5*r.Float64(), 0.1+0.5*r.Float64())
			d.Angle = r.Float64() * math.Pi
		}
		d.StartAsleep = i%7 == 0
		s.add(d)
	}
	s.run(n)
	return s
}

// bodiesOf lists every body of the world with its pose and shape, read
// from the components.
func (s *sim) bodiesOf() (ents []arche.Entity, xfs []components.Transform, shapes []components.Shape) {
	f := generic.NewFilter2[components.Transform, components.Shape]()
	q := f.Query(s.w)
	for q.Next() {
		t, sh := q.Get()
		ents, xfs, shapes = append(ents, q.Entity()), append(xfs, *t), append(shapes, *sh)
	}
	return
}

// TestQueriesMatchBruteForce: after ticks of a scene with moving, sleeping,
// static and kinematic bodies, CastRay returns the nearest hit that a test
// of the segment against every body's shape, at the pose the Update wrote,
// finds (the same body, fraction, point and normal; ties excepted), with
// and without a filter; and OverlapAABB returns exactly the bodies whose
// shapes a distance test finds within the box. Before the first Update, the
// queries see the bodies as created.
func TestQueriesMatchBruteForce(t *testing.T) {
	for _, ticks := range []int{0, 1, 90} {
		s := queryScene(t, 2, ticks, 5)
		ents, xfs, shapes := s.bodiesOf()
		r := rand.New(rand.NewPCG(uint64(ticks), 2))
		hits := 0
		for k := range 3000 {
			o := components.V(-12+24*r.Float64(), -2+18*r.Float64())
			d := components.V(30*(r.Float64()-0.5), 30*(r.Float64()-0.5))
			var skip arche.Entity
			var accept func(arche.Entity) bool
			if k%3 == 0 {
				skip = ents[r.IntN(len(ents))]
				accept = func(e arche.Entity) bool { return e != skip }
			}
			want, wantOK := rayHitBrute(ents, xfs, shapes, o, d, skip)
			got, ok := s.p.CastRay(o, d, accept)
			if ok != wantOK {
				t.Fatalf("ticks %d ray %d (%v + %v): hit %v, brute force %v (%+v)", ticks, k, o, d, ok, wantOK, want)
			}
			if !ok {
				continue
			}
			hits++
			if got.Fraction != want.Fraction {
				t.Fatalf("ticks %d ray %d: fraction %v, brute force %v", ticks, k, got.Fraction, want.Fraction)
			}
			if got.Entity != want.Entity {
				continue // two bodies met at the same fraction
			}
			if got.Point != want.Point || got.Normal != want.Normal {
				t.Fatalf("ticks %d ray %d: %+v, brute force %+v", ticks, k, got, want)
			}
		}
		if hits < 1000 {
			t.Fatalf("ticks %d: %d of 3000 rays hit: the test tried too little", ticks, hits)
		}

		var out []arche.Entity
		for k := range 1000 {
			c := components.V(-11+22*r.Float64(), -1+16*r.Float64())
			h := components.V(3*r.Float64(), 3*r.Float64())
			box := components.AABB{Min: c.Sub(h), Max: c.Add(h)}
			out = s.p.OverlapAABB(box, nil, out[:0])
			var want []arche.Entity
			region := components.Box(h.X, h.Y)
			for i, e := range ents {
				if dist, _ := narrowphase.Distance(region, components.Transform{P: c, R: components.Identity}, shapes[i], xfs[i]); dist <= 0 {
					want = append(want, e)
				}
			}
			got := slices.Clone(out)
			key := func(a, b arche.Entity) int { return int(a.ID()) - int(b.ID()) }
			slices.SortFunc(got, key)
			slices.SortFunc(want, key)
			if !slices.Equal(got, want) {
				t.Fatalf("ticks %d box %d %v: %v, brute force %v", ticks, k, box, got, want)
			}
		}
	}
}

// rayHitBrute tests the segment against every body but skip.
func rayHitBrute(ents []arche.Entity, xfs []components.Transform, shapes []components.Shape, o, d components.Vec2, skip arche.Entity) (systems.RayHit, bool) {
	best, found := systems.RayHit{}, false
	for i, e := range ents {
		if e == skip {
			continue
		}
		if f, n, ok := narrowphase.RayCast(shapes[i], xfs[i], o, d); ok && (!found || f < best.Fraction) {
			best, found = systems.RayHit{Entity: e, Point: o.Add(d.Scale(f)), Normal: n, Fraction: f}, true
		}
	}
	return best, found
}

// TestQueriesSeeTheLastUpdate: a ray from inside a box passes through it
// to the next; a body removed after the Update is no longer found, by
// RemoveBody or with its entity; one moved after the Update is found where
// the Update left it until the next Update; bad queries find nothing.
func TestQueriesSeeTheLastUpdate(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{} })
	a := s.add(dynBox(0, 0, 0.5, 0.5))
	b := s.add(dynBox(3, 0, 0.5, 0.5))
	c := s.add(dynCircle(6, 0, 0.5))
	s.run(1)
	ray := func() (systems.RayHit, bool) { return s.p.CastRay(components.V(0, 0), components.V(10, 0), nil) }
	if h, ok := ray(); !ok || h.Entity != b || math.Abs(h.Fraction-0.25) > 1e-12 || h.Normal != components.V(-1, 0) {
		t.Fatalf("from inside a: %+v %v, want b at 0.25 with normal (-1, 0)", h, ok)
	}
	if err := ecs.RemoveBody(s.w, b); err != nil {
		t.Fatal(err)
	}
	if h, ok := ray(); !ok || h.Entity != c || math.Abs(h.Fraction-0.55) > 1e-12 {
		t.Fatalf("b removed: %+v %v, want c at 0.55", h, ok)
	}
	s.w.RemoveEntity(c)
	if h, ok := ray(); ok {
		t.Fatalf("b and c removed: hit %+v", h)
	}
	if err := ecs.SetTransform(s.w, a, components.V(5, 0), 0); err != nil {
		t.Fatal(err)
	}
	if h, ok := s.p.CastRay(components.V(5, 5), components.V(0, -10), nil); ok {
		t.Fatalf("a moved after the Update was found at its new place: %+v", h)
	}
	if h, ok := s.p.CastRay(components.V(0, 5), components.V(0, -10), nil); !ok || h.Entity != a {
		t.Fatalf("a not found where the Update left it: %+v %v", h, ok)
	}
	s.run(1)
	if h, ok := s.p.CastRay(components.V(5, 5), components.V(0, -10), nil); !ok || h.Entity != a || math.Abs(h.Point.Y-0.5) > 1e-12 {
		t.Fatalf("a not found at its new place after the next Update: %+v %v", h, ok)
	}
	nan := math.NaN()
	if _, ok := s.p.CastRay(components.V(nan, 0), components.V(1, 0), nil); ok {
		t.Error("a NaN origin hit")
	}
	if _, ok := s.p.CastRay(components.V(0, 0), components.V(0, 0), nil); ok {
		t.Error("a zero translation hit")
	}
	for _, box := range []components.AABB{
		{Min: components.V(1, 1), Max: components.V(0, 2)},
		{Min: components.V(nan, 0), Max: components.V(10, 10)},
		{Min: components.V(0, 0), Max: components.V(math.Inf(1), 1)},
	} {
		if got := s.p.OverlapAABB(box, nil, nil); len(got) != 0 {
			t.Errorf("box %v found %v", box, got)
		}
	}
	if got := s.p.OverlapAABB(components.AABB{Min: components.V(5.5, -1), Max: components.V(6, 1)}, nil, nil); len(got) != 1 || got[0] != a {
		t.Errorf("a box touching a's face found %v, want a", got)
	}
}

// TestQueriesDeterministicAndWithoutGarbage: the same rays and boxes give
// the same answers on 1 and 3 workers, and once the tick's index is built a
// query allocates nothing.
func TestQueriesDeterministicAndWithoutGarbage(t *testing.T) {
	answers := func(workers int) []float64 {
		s := queryScene(t, workers, 60, 9)
		r := rand.New(rand.NewPCG(4, 4))
		var out []float64
		var ents []arche.Entity
		for range 500 {
			o := components.V(-12+24*r.Float64(), -2+18*r.Float64())
			d := components.V(30*(r.Float64()-0.5), 30*(r.Float64()-0.5))
			if h, ok := s.p.CastRay(o, d, nil); ok {
				out = append(out, float64(h.Entity.ID()), h.Fraction, h.Normal.X)
			}
			ents = s.p.OverlapAABB(components.AABB{Min: o, Max: o.Add(components.V(2, 2))}, nil, ents[:0])
			for _, e := range ents {
				out = append(out, float64(e.ID()))
			}
		}
		if workers == 1 {
			var buf []arche.Entity
			allocs := testing.AllocsPerRun(100, func() {
				s.p.CastRay(components.V(-12, 3), components.V(24, 1), nil)
				buf = s.p.OverlapAABB(components.AABB{Min: components.V(-5, 0), Max: components.V(5, 4)}, nil, buf[:0])
			})
			if allocs != 0 {
				t.Errorf("%v allocations per query pair", allocs)
			}
		}
		return out
	}
	one, three := answers(1), answers(3)
	if !slices.Equal(one, three) {
		t.Fatalf("answers differ on 1 and 3 workers (%d and %d values)", len(one), len(three))
	}
}

// TestQueriesFollowEveryTick: querying in every tick of a scene whose
// frozen rows change (bodies fall asleep, are woken, removed while asleep,
// a wall is moved), the answers match the brute force each time: the
// index's frozen part, kept while the step's frozen rows stay the same, is
// never stale.
func TestQueriesFollowEveryTick(t *testing.T) {
	s := queryScene(t, 1, 0, 11)
	r := rand.New(rand.NewPCG(6, 6))
	wall := s.add(staticBox(-10.5, 8, 0.5, 8, 0)) // over the scene's left wall
	for tick := 1; tick <= 240; tick++ {
		switch tick {
		case 100:
			if err := ecs.SetTransform(s.w, wall, components.V(-9, 8), 0.2); err != nil {
				t.Fatal(err)
			}
		case 150, 200:
			ents, _, _ := s.bodiesOf()
			for _, e := range ents {
				if s.asleep(e) {
					if tick == 150 {
						s.w.RemoveEntity(e)
					} else if err := ecs.Wake(s.w, e); err != nil {
						t.Fatal(err)
					}
					break
				}
			}
		}
		s.run(1)
		ents, xfs, shapes := s.bodiesOf()
		for range 20 {
			o := components.V(-12+24*r.Float64(), -2+18*r.Float64())
			d := components.V(30*(r.Float64()-0.5), 30*(r.Float64()-0.5))
			want, wantOK := rayHitBrute(ents, xfs, shapes, o, d, arche.Entity{})
			got, ok := s.p.CastRay(o, d, nil)
			if ok != wantOK || ok && got.Fraction != want.Fraction {
				t.Fatalf("tick %d: %+v %v, brute force %+v %v", tick, got, ok, want, wantOK)
			}
		}
	}
	if p := s.profile(); p.Frozen <= 4 {
		t.Fatalf("%d frozen rows at the end: nothing fell asleep", p.Frozen)
	}
}

// TestQueriesEdgeCases, from a review: a ray through a box's corner hits
// it as the kernel does; a static box turned into a circle of the same
// bounds is seen as a circle; before the first Update each query sees the
// bodies made so far; an accept function that itself queries leaves the
// outer query whole; a region of +-MaxFloat64 holds every body; a long ray
// past a cluster of tiny bodies to a far one finds it.
func TestQueriesEdgeCases(t *testing.T) {
	t.Run("corner", func(t *testing.T) {
		s := newSim(t, nil)
		box := staticBox(-1.8714901480260773, -1.74876071820111, 1.0280718778860714, 0.7152029644478017, 0)
		e := s.add(box)
		s.run(1)
		o, d := components.V(13.848835453805265, 17.38039213395583), components.V(-29.38450744789054, -39.688711633209486)
		f, _, want := narrowphase.RayCast(box.Shape, s.transform(e), o, d)
		h, ok := s.p.CastRay(o, d, nil)
		if ok != want || ok && h.Fraction != f {
			t.Fatalf("hit %v at %v, the kernel %v at %v", ok, h.Fraction, want, f)
		}
		// Rays aimed at each corner and at the middle of each face, from
		// random far points.
		r := rand.New(rand.NewPCG(1, 2))
		xf := s.transform(e)
		for k := range 4000 {
			hx, hy := box.Shape.Half.X, box.Shape.Half.Y
			target := xf.Apply(components.V([]float64{-hx, hx, 0}[k%3], []float64{-hy, hy, 0}[(k/3)%3]))
			o := target.Add(components.V(40*r.Float64()-20, 40*r.Float64()-20))
			d := target.Sub(o).Scale(1 + r.Float64())
			f, _, want := narrowphase.RayCast(box.Shape, xf, o, d)
			h, ok := s.p.CastRay(o, d, nil)
			if ok != want || ok && h.Fraction != f {
				t.Fatalf("ray %d at %v: hit %v at %v, the kernel %v at %v", k, target, ok, h.Fraction, want, f)
			}
		}
	})
	t.Run("reshaped static", func(t *testing.T) {
		s := newSim(t, nil)
		e := s.add(staticBox(0, 0, 1, 1, 0))
		s.add(dynCircle(5, 5, 0.5))
		s.run(2)
		if h, ok := s.p.CastRay(components.V(-2, 2), components.V(4, -4), nil); !ok || h.Fraction != 0.25 {
			t.Fatalf("the box: %+v %v, want its corner at 0.25", h, ok)
		}
		shapes := generic.NewMap[components.Shape](s.w)
		*shapes.Get(e) = components.Circle(1)
		s.run(2)
		h, ok := s.p.CastRay(components.V(-2, 2), components.V(4, -4), nil)
		f, _, _ := narrowphase.RayCast(components.Circle(1), s.transform(e), components.V(-2, 2), components.V(4, -4))
		if !ok || h.Fraction != f {
			t.Fatalf("hit %+v %v, want the circle at %v", h, ok, f)
		}
		if got := s.p.OverlapAABB(components.AABB{Min: components.V(-1, 0.9), Max: components.V(-0.9, 1)}, nil, nil); len(got) != 0 {
			t.Fatalf("the box's old corner still holds %v", got)
		}
	})
	t.Run("before the first update", func(t *testing.T) {
		s := newSim(t, nil)
		s.add(ground())
		spot := components.AABB{Min: components.V(2, 0.1), Max: components.V(3, 1)}
		if got := s.p.OverlapAABB(spot, nil, nil); len(got) != 0 {
			t.Fatalf("the free spot holds %v", got)
		}
		b := s.add(dynBox(2.5, 0.5, 0.5, 0.5))
		if got := s.p.OverlapAABB(spot, nil, nil); len(got) != 1 || got[0] != b {
			t.Fatalf("the spot holds %v, want the box just made", got)
		}
		if h, ok := s.p.CastRay(components.V(2.5, 5), components.V(0, -10), nil); !ok || h.Entity != b {
			t.Fatalf("a ray down found %+v, want the box", h)
		}
	})
	t.Run("nested", func(t *testing.T) {
		s := newSim(t, nil)
		var want []arche.Entity
		for i := range 20 {
			want = append(want, s.add(staticBox(5+2*float64(i), 0, 0.5, 0.5, 0)))
		}
		s.run(1)
		inner := 0
		accept := func(e arche.Entity) bool {
			inner += len(s.p.OverlapAABB(components.AABB{Min: components.V(34, -1), Max: components.V(44, 1)}, nil, nil))
			_, _ = s.p.CastRay(components.V(0, 0), components.V(50, 0), nil)
			return true
		}
		got := s.p.OverlapAABB(components.AABB{Min: components.V(0, -1), Max: components.V(50, 1)}, accept, nil)
		if !slices.Equal(got, want) || inner != 20*5 {
			t.Fatalf("outer query %v (inner found %d), want %v", got, inner, want)
		}
		h, ok := s.p.CastRay(components.V(0, 0), components.V(50, 0), func(e arche.Entity) bool {
			s.p.OverlapAABB(components.AABB{Min: components.V(0, -1), Max: components.V(50, 1)}, nil, nil)
			return e != want[0]
		})
		if !ok || h.Entity != want[1] {
			t.Fatalf("ray with a querying filter: %+v %v, want the second box", h, ok)
		}
	})
	t.Run("huge region", func(t *testing.T) {
		s := newSim(t, nil)
		s.add(ground())
		s.add(dynBox(0, 3, 0.5, 0.5))
		s.run(1)
		all := components.AABB{Min: components.V(-math.MaxFloat64, -math.MaxFloat64), Max: components.V(math.MaxFloat64, math.MaxFloat64)}
		if got := s.p.OverlapAABB(all, nil, nil); len(got) != 2 {
			t.Fatalf("a region of +-MaxFloat64 holds %v", got)
		}
	})
	t.Run("point", func(t *testing.T) {
		s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{} })
		b := s.add(dynBox(0, 0, 0.5, 0.25))
		c := s.add(dynCircle(3, 0, 0.5))
		s.run(1)
		at := func(x, y float64) []arche.Entity {
			p := components.V(x, y)
			return s.p.OverlapAABB(components.AABB{Min: p, Max: p}, nil, nil)
		}
		if got := at(0.4, 0.2); len(got) != 1 || got[0] != b {
			t.Errorf("a point inside the box found %v", got)
		}
		if got := at(3.3, 0.3); len(got) != 1 || got[0] != c {
			t.Errorf("a point inside the circle found %v", got)
		}
		if got := at(3.4, 0.4); len(got) != 0 { // inside the circle's box, outside the circle
			t.Errorf("a point beside the circle found %v", got)
		}
	})
	t.Run("enormous world", func(t *testing.T) {
		// Cells of 2e-6 m under a ray of 4e10 m and more: finer than its
		// fractions can tell apart. The walk looked at one cell for ever.
		for _, w := range []float64{1e10, 1e12, 1e13} {
			s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{} })
			r := rand.New(rand.NewPCG(1, 1))
			for range 300 {
				d := dynCircle(1e-3*r.Float64(), 1e-3*r.Float64(), 1e-7)
				d.Type = components.Static
				s.add(d)
			}
			left := s.add(staticBox(-w, 0, 1, 1, 0))
			s.add(staticBox(w, 0, 1, 1, 0))
			s.run(1)
			none := func(arche.Entity) bool { return false }
			if h, ok := s.p.CastRay(components.V(-2*w, 5e-4), components.V(4*w, 1e-9), none); ok {
				t.Fatalf("w %g: a filter refusing every body let %+v through", w, h)
			}
			if h, ok := s.p.CastRay(components.V(-2*w, 0.5), components.V(4*w, 1e-9), nil); !ok || h.Entity != left {
				t.Fatalf("w %g: %+v %v, want the left box", w, h, ok)
			}
			// Into the cluster from just beside it: what the kernel finds.
			ents, xfs, shapes := s.bodiesOf()
			for k := range 100 {
				o := components.V(-1e-3, 1e-3*r.Float64())
				d := components.V(3e-3, 1e-4*(r.Float64()-0.5))
				want, wantOK := rayHitBrute(ents, xfs, shapes, o, d, arche.Entity{})
				got, ok := s.p.CastRay(o, d, nil)
				if ok != wantOK || ok && got.Fraction != want.Fraction {
					t.Fatalf("w %g ray %d: %+v %v, brute force %+v %v", w, k, got, ok, want, wantOK)
				}
			}
		}
	})
	t.Run("not initialised or finalised", func(t *testing.T) {
		p, err := systems.New(systems.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		box := components.AABB{Min: components.V(-1, -1), Max: components.V(1, 1)}
		if _, ok := p.CastRay(components.V(0, 5), components.V(0, -10), nil); ok {
			t.Error("a system set never initialised found a body")
		}
		if got := p.OverlapAABB(box, nil, nil); len(got) != 0 {
			t.Errorf("a system set never initialised found %v", got)
		}
		w := arche.NewWorld()
		p.Initialize(&w)
		def := ecs.DefaultBodyDef()
		def.Shape = components.Box(0.5, 0.5)
		if _, err := ecs.NewBody(&w, def); err != nil {
			t.Fatal(err)
		}
		p.Update(&w)
		if _, ok := p.CastRay(components.V(0, 5), components.V(0, -10), nil); !ok {
			t.Fatal("the box was not found")
		}
		p.Finalize(&w)
		if _, ok := p.CastRay(components.V(0, 5), components.V(0, -10), nil); ok {
			t.Error("a finalised system set found a body")
		}
		if got := p.OverlapAABB(box, nil, nil); len(got) != 0 {
			t.Errorf("a finalised system set found %v", got)
		}
	})
	t.Run("cluster and far body", func(t *testing.T) {
		s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{} })
		r := rand.New(rand.NewPCG(3, 3))
		for range 1000 {
			s.add(staticBox(0.4*r.Float64(), 0.4*r.Float64(), 1e-3, 1e-3, 0))
		}
		far := s.add(staticBox(1e4, 1e4, 0.5, 0.5, 0))
		s.run(1)
		if h, ok := s.p.CastRay(components.V(5000, 0), components.V(5000, 1e4), nil); !ok || h.Entity != far {
			t.Fatalf("%+v %v, want the far box", h, ok)
		}
		if h, ok := s.p.CastRay(components.V(-1e6, 0.2), components.V(2e6, 0), nil); !ok || h.Point.X > 0.4 {
			t.Fatalf("a ray through the cluster: %+v %v", h, ok)
		}
	})
}

// TestQueriesFindLeftOutBodiesThatStand: a body the tick leaves out for a
// bad value stands as a static body where its pose and shape are usable,
// so a ray finds it, before the first Update as after it; one with a NaN
// position is found by neither.
func TestQueriesFindLeftOutBodiesThatStand(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{} })
	stands := s.add(dynBox(3, 0, 0.5, 0.5))
	gone := s.add(dynBox(6, 0, 0.5, 0.5))
	mats := generic.NewMap[components.Material](s.w)
	mats.Get(stands).Friction = math.NaN()
	s.xf.Get(gone).P.Y = math.NaN()
	for _, stepped := range []bool{false, true} {
		if stepped {
			s.run(1)
		}
		if h, ok := s.p.CastRay(components.V(0, 0), components.V(10, 0), nil); !ok || h.Entity != stands {
			t.Fatalf("stepped %v: %+v %v, want the box with the NaN friction", stepped, h, ok)
		}
		if h, ok := s.p.CastRay(components.V(6, 5), components.V(0, -10), nil); ok {
			t.Fatalf("stepped %v: the box with the NaN position was found: %+v", stepped, h)
		}
	}
}
