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
