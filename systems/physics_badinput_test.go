package systems_test

import (
	"errors"
	"math"
	"strings"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// TestPhysicsBadComponentReported: a game writes a bad value into a body's
// components between ticks (NaN or Inf position, NaN rotation, a non-unit
// rotation, NaN velocity, zero mass). On the next tick the body is listed in
// the ecs.Report resource with the field named, it is left out (its bad
// components are not touched, it does not move), the rest of the world steps
// as if the bad body were not there (a free ball bit-identically to a world
// without it; the box it stood on within 0.2 mm), and no NaN reaches another
// body, not even one touching it. When the
// game fixes the value, the body is simulated again and the report empties.
func TestPhysicsBadComponentReported(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	cases := []struct {
		name  string
		field string
		spoil func(s *sim, e arche.Entity)
	}{
		{"NaN position", "Transform.P", func(s *sim, e arche.Entity) { s.xf.Get(e).P.X = nan }},
		{"Inf position", "Transform.P", func(s *sim, e arche.Entity) { s.xf.Get(e).P.Y = inf }},
		{"NaN rotation", "Transform.R", func(s *sim, e arche.Entity) { s.xf.Get(e).R.S = nan }},
		{"non-unit rotation", "Transform.R", func(s *sim, e arche.Entity) { s.xf.Get(e).R = components.Rot{C: 2, S: 0} }},
		{"zero rotation", "Transform.R", func(s *sim, e arche.Entity) { s.xf.Get(e).R = components.Rot{} }},
		{"NaN velocity", "Velocity", func(s *sim, e arche.Entity) { s.vel.Get(e).Ang = nan }},
		{"zero mass", "Mass", func(s *sim, e arche.Entity) { *s.mass.Get(e) = components.Mass{} }},
		{"NaN force", "Force", func(s *sim, e arche.Entity) {
			forces := generic.NewMap[components.Force](s.w)
			forces.Get(e).Torque = nan
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			// Two identical worlds; the bad body exists only in the first.
			build := func(withBad bool) (*sim, []arche.Entity, arche.Entity) {
				s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
				s.add(ground())
				var others []arche.Entity
				// A box the bad body rests on and a ball far away.
				others = append(others, s.add(dynBox(0, 0.5, 0.5, 0.5)))
				others = append(others, s.add(dynCircle(5, 3, 0.3)))
				var bad arche.Entity
				if withBad {
					bad = s.add(dynBox(0, 1.5, 0.5, 0.5))
				}
				return s, others, bad
			}
			s, others, bad := build(true)
			ref, refOthers, _ := build(false)
			s.run(10)
			ref.run(10)
			// Same start for the reference: copy the state of the others.
			for i, e := range others {
				*ref.xf.Get(refOthers[i]) = s.transform(e)
				*ref.vel.Get(refOthers[i]) = s.v(e)
			}
			tc.spoil(s, bad)
			badXf, badV := s.transform(bad), s.v(bad)
			for i := 0; i < 30; i++ {
				s.run(1)
				ref.run(1)
				rep := s.report()
				if len(rep) != 1 || rep[0].Entity != bad || rep[0].Field != tc.field {
					t.Fatalf("tick %d: report %v, want one error for %v naming %s", i, rep, bad, tc.field)
				}
				for j, e := range others {
					if !s.finiteBody(e) {
						t.Fatalf("tick %d: NaN spread to body %d: %+v %+v", i, j, s.transform(e), s.v(e))
					}
				}
			}
			var be error = s.report()[0]
			t.Logf("report: %v", be)
			if !errors.As(be, new(ecs.BodyError)) {
				t.Errorf("report entry is not an ecs.BodyError")
			}
			// The bad body was left alone.
			if got := s.transform(bad); !sameBits(got, badXf) {
				t.Errorf("the refused body's transform changed from %+v to %+v", badXf, got)
			}
			if got := s.v(bad); !sameBitsV(got, badV) {
				t.Errorf("the refused body's velocity changed from %+v to %+v", badV, got)
			}
			// The others stepped as in the world without it: the free ball
			// bit-identically; the box it rested on lost its load, as if it
			// had been removed, and matches within 0.2 mm. Where its pose
			// and shape are usable the bad body stands on it as a static
			// body (solidLeftOut), whose contact holds it by the linear slop
			// (0.11 mm off), else it is gone from the tick (0.1 mm off: only
			// the warm-start impulses, which remembered the load, differ).
			if !sameBits(s.transform(others[1]), ref.transform(refOthers[1])) {
				t.Errorf("free ball: transform %+v, world without the bad body %+v", s.transform(others[1]), ref.transform(refOthers[1]))
			}
			if d := s.pos(others[0]).Sub(ref.pos(refOthers[0])).Len(); d > 2e-4 {
				t.Errorf("box under the bad body is %.3g m from where it is in the world without the bad body, want < 2e-4", d)
			}
			// The game fixes the body: it is simulated again.
			*s.xf.Get(bad) = components.NewTransform(0, 1.5, 0)
			*s.vel.Get(bad) = components.Velocity{}
			*s.mass.Get(bad) = components.Mass{Mass: 1, Inertia: 1.0 / 6, InvMass: 1, InvInertia: 6}
			forces := generic.NewMap[components.Force](s.w)
			*forces.Get(bad) = components.Force{}
			s.run(1)
			if rep := s.report(); len(rep) != 0 {
				t.Errorf("after the fix the report still has %v", rep)
			}
			if y := s.pos(bad).Y; y >= 1.5 {
				t.Errorf("after the fix the body does not move (y %.4f)", y)
			}
		})
	}
}

// sameBits compares transforms bit for bit (NaN equal to NaN).
func sameBits(a, b components.Transform) bool {
	f := math.Float64bits
	return f(a.P.X) == f(b.P.X) && f(a.P.Y) == f(b.P.Y) && f(a.R.C) == f(b.R.C) && f(a.R.S) == f(b.R.S)
}

func sameBitsV(a, b components.Velocity) bool {
	f := math.Float64bits
	return f(a.Lin.X) == f(b.Lin.X) && f(a.Lin.Y) == f(b.Lin.Y) && f(a.Ang) == f(b.Ang)
}

// TestPhysicsLeftOutBodyStaysSolid: a column of three 1 m boxes whose
// bottom box the game spoils (a NaN friction, a zero mass, a NaN velocity)
// is reported every tick, and the bottom box stands as a static body while
// it is left out: the two above stay on it (within 1 cm of their heights
// for 60 ticks) instead of sinking into it (before, the middle box fell the
// whole metre into it, the top one with it). Mended, the column goes on
// standing and the bottom box is simulated again. A box with a NaN
// position cannot stand anywhere: the one above it falls through it.
func TestPhysicsLeftOutBodyStaysSolid(t *testing.T) {
	nan := math.NaN()
	for _, tc := range []struct {
		name, field string
		spoil       func(s *sim, e arche.Entity)
		solid       bool
	}{
		{"NaN friction", "Material", func(s *sim, e arche.Entity) {
			mats := generic.NewMap[components.Material](s.w)
			mats.Get(e).Friction = nan
		}, true},
		{"zero mass", "Mass", func(s *sim, e arche.Entity) { *s.mass.Get(e) = components.Mass{} }, true},
		{"NaN velocity", "Velocity", func(s *sim, e arche.Entity) { s.vel.Get(e).Lin.X = nan }, true},
		{"NaN position", "Transform.P", func(s *sim, e arche.Entity) { s.xf.Get(e).P.X = nan }, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newSim(t, func(c *systems.Config) { c.Sleep = false })
			s.add(ground())
			var col []arche.Entity
			for i := range 3 {
				col = append(col, s.add(dynBox(0, 0.5+float64(i), 0.5, 0.5)))
			}
			s.run(30)
			rest := []float64{s.pos(col[1]).Y, s.pos(col[2]).Y}
			good := *s.vel.Get(col[0])
			mass := *s.mass.Get(col[0])
			mats := generic.NewMap[components.Material](s.w)
			mat := *mats.Get(col[0])
			xf := s.transform(col[0])
			tc.spoil(s, col[0])
			for tick := 1; tick <= 60; tick++ {
				s.run(1)
				if rep := s.report(); len(rep) != 1 || rep[0].Entity != col[0] || rep[0].Field != tc.field {
					t.Fatalf("tick %d: report %v, want the bottom box's %s", tick, rep, tc.field)
				}
			}
			for k, e := range col[1:] {
				drop := rest[k] - s.pos(e).Y
				if tc.solid && math.Abs(drop) > 0.01 {
					t.Fatalf("box %d moved %.4f m down on the left-out bottom box, want it to stand on it", k+1, drop)
				}
				if !tc.solid && drop < 0.5 {
					t.Fatalf("box %d went %.4f m down where the bottom box has no position, want it to fall", k+1, drop)
				}
			}
			if !tc.solid {
				return
			}
			*s.vel.Get(col[0]), *s.mass.Get(col[0]) = good, mass
			*mats.Get(col[0]) = mat
			*s.xf.Get(col[0]) = xf
			s.run(60)
			if rep := s.report(); len(rep) != 0 {
				t.Fatalf("mended, the report still has %v", rep)
			}
			for k, e := range col[1:] {
				if drop := rest[k] - s.pos(e).Y; math.Abs(drop) > 0.01 {
					t.Fatalf("mended: box %d is %.4f m below its rest height", k+1, drop)
				}
			}
		})
	}
}

// TestPhysicsLeftOutBodyKeepsItsJointApart: two overlapping boxes joined by
// a revolute joint that does not let them collide; when the game spoils
// one (a NaN velocity), the joint is left out with it and reported, and the
// box that stands as a static body meanwhile still does not push the other
// out (a review's probe: 0.2 m in 10 ticks).
func TestPhysicsLeftOutBodyKeepsItsJointApart(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Gravity, c.Sleep = components.Vec2{}, false })
	a := s.add(dynBox(0, 5, 0.5, 0.1))
	b := s.add(dynBox(0.8, 5, 0.5, 0.1))
	s.joint(ecs.RevoluteJoint(s.w, a, b, components.V(0.4, 5)))
	s.run(5)
	start := s.pos(b)
	s.vel.Get(a).Lin.X = math.NaN()
	for tick := 1; tick <= 20; tick++ {
		s.run(1)
		if rep := s.jointReport(); len(rep) != 1 {
			t.Fatalf("tick %d: joint report %v, want the joint left out with its body", tick, rep)
		}
	}
	if d := s.pos(b).Sub(start).Len(); d > 1e-3 {
		t.Fatalf("the joined box moved %.4f m off the left-out one, want it left alone", d)
	}
}

// TestPhysicsSlightlyOffRotationRenormalised: a rotation off unit length by
// less than 1e-3 (a game's rounding) is accepted and renormalised, not
// reported.
func TestPhysicsSlightlyOffRotationRenormalised(t *testing.T) {
	s := newSim(t, nil)
	e := s.add(dynBox(0, 5, 0.5, 0.5))
	s.xf.Get(e).R = components.Rot{C: 1.0005, S: 0}
	s.run(1)
	if rep := s.report(); len(rep) != 0 {
		t.Errorf("report %v, want none", rep)
	}
	if r := s.transform(e).R; math.Abs(math.Hypot(r.C, r.S)-1) > 1e-12 {
		t.Errorf("rotation %+v not renormalised", r)
	}
}

// TestPhysicsOverflowKeepsLastState: every input is finite, but gravity
// 1e300 times a gravity scale of 1e10, against a force of -1e308 N on a
// 10 g body, makes inf - inf in the step. The body is reported, and keeps
// the pose and velocity it had instead of being written NaN.
func TestPhysicsOverflowKeepsLastState(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
	d := dynCircle(0, 0, 0.1)
	d.Mass = 0.01
	d.GravityScale = 1e10
	b := s.add(d)
	if err := ecs.SetGravity(s.w, components.V(1e300, 0)); err != nil {
		t.Fatal(err)
	}
	if err := ecs.ApplyForceToCenter(s.w, b, components.V(-1e308, 0)); err != nil {
		t.Fatal(err)
	}
	xf, v := s.transform(b), s.v(b)
	s.run(1)
	if !s.finiteBody(b) || s.transform(b) != xf || s.v(b) != v {
		t.Errorf("pose %+v and velocity %+v after the step, want the ones before, %+v and %+v",
			s.transform(b), s.v(b), xf, v)
	}
	errs := s.report()
	if len(errs) != 1 || errs[0].Entity != b || errs[0].Field != "Transform" {
		t.Fatalf("report %v, want the body's Transform", errs)
	}
	t.Log(errs[0])
}

// TestPhysicsGravityResourceNaN: a game that writes NaN into the Gravity
// resource directly (ecs.SetGravity refuses it) gets it named in
// Report.Gravity, and the tick keeps the last gravity it could use: a ball
// falls on as before and no body is reported. Before, every dynamic body's
// step went NaN and each was reported as a body beyond float64.
func TestPhysicsGravityResourceNaN(t *testing.T) {
	s := newSim(t, nil)
	ball := s.add(dynCircle(0, 10, 0.5))
	s.run(5)
	v0 := s.v(ball).Lin.Y
	res := generic.NewResource[ecs.Gravity](s.w)
	res.Get().V = components.V(math.NaN(), -10)
	s.run(1)
	rep := generic.NewResource[ecs.Report](s.w)
	if r := rep.Get(); !strings.Contains(r.Gravity, "NaN") || len(r.Errors) != 0 {
		t.Fatalf("report %+v, want the gravity named and no body", *r)
	}
	if v, want := s.v(ball).Lin.Y, v0-10*s.cfg.Dt; math.Abs(v-want) > 1e-9 {
		t.Errorf("the ball's speed went from %v to %v, want %v under the last gravity", v0, v, want)
	}
	if err := ecs.SetGravity(s.w, components.V(0, -5)); err != nil {
		t.Fatal(err)
	}
	s.run(1)
	if r := rep.Get(); r.Gravity != "" {
		t.Errorf("a mended gravity is still reported: %q", r.Gravity)
	}
}
