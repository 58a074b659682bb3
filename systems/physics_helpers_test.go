package systems_test

import (
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// sim is a small harness around one world and its physics system, used by
// the physics_*_test.go files. Everything goes through the public API.
type sim struct {
	t    testing.TB
	w    *arche.World
	p    *systems.Physics
	cfg  systems.Config
	xf   generic.Map[components.Transform]
	vel  generic.Map[components.Velocity]
	mass generic.Map[components.Mass]
	body generic.Map[components.Body]
	step int
}

// newSim makes a world with the default configuration changed by mod (may be
// nil) and an initialised physics system, finalised when the test ends.
func newSim(t testing.TB, mod func(*systems.Config)) *sim {
	t.Helper()
	cfg := systems.DefaultConfig()
	if mod != nil {
		mod(&cfg)
	}
	p, err := systems.New(cfg)
	if err != nil {
		t.Fatalf("systems.New: %v", err)
	}
	w := arche.NewWorld()
	s := &sim{t: t, w: &w, p: p, cfg: cfg}
	p.Initialize(s.w)
	t.Cleanup(func() { p.Finalize(s.w) })
	s.xf = generic.NewMap[components.Transform](s.w)
	s.vel = generic.NewMap[components.Velocity](s.w)
	s.mass = generic.NewMap[components.Mass](s.w)
	s.body = generic.NewMap[components.Body](s.w)
	return s
}

// add creates a body and fails the test on a refused definition.
func (s *sim) add(def ecs.BodyDef) arche.Entity {
	s.t.Helper()
	e, err := ecs.NewBody(s.w, def)
	if err != nil {
		s.t.Fatalf("NewBody(%+v): %v", def, err)
	}
	return e
}

// run advances n ticks.
func (s *sim) run(n int) {
	for i := 0; i < n; i++ {
		s.p.Update(s.w)
		s.step++
	}
}

func (s *sim) pos(e arche.Entity) components.Vec2            { return s.xf.Get(e).P }
func (s *sim) angle(e arche.Entity) float64                  { return s.xf.Get(e).Angle() }
func (s *sim) v(e arche.Entity) components.Velocity          { return *s.vel.Get(e) }
func (s *sim) transform(e arche.Entity) components.Transform { return *s.xf.Get(e) }
func (s *sim) asleep(e arche.Entity) bool                    { return ecs.IsSleeping(s.w, e) }

func (s *sim) profile() ecs.Profile {
	r := generic.NewResource[ecs.Profile](s.w)
	return *r.Get()
}

func (s *sim) report() []ecs.BodyError {
	r := generic.NewResource[ecs.Report](s.w)
	return r.Get().Errors
}

// staticBox is a static box of half extents (hx, hy) centred at (x, y),
// rotated by angle.
func staticBox(x, y, hx, hy, angle float64) ecs.BodyDef {
	d := ecs.DefaultBodyDef()
	d.Type = components.Static
	d.Position = components.V(x, y)
	d.Angle = angle
	d.Shape = components.Box(hx, hy)
	return d
}

// ground is a static box whose top surface is the line y = 0, 40 m wide.
func ground() ecs.BodyDef { return staticBox(0, -0.5, 20, 0.5, 0) }

func dynBox(x, y, hx, hy float64) ecs.BodyDef {
	d := ecs.DefaultBodyDef()
	d.Position = components.V(x, y)
	d.Shape = components.Box(hx, hy)
	return d
}

func dynCircle(x, y, r float64) ecs.BodyDef {
	d := ecs.DefaultBodyDef()
	d.Position = components.V(x, y)
	d.Shape = components.Circle(r)
	return d
}

// relErr returns |got - want| / scale.
func relErr(got, want, scale float64) float64 { return math.Abs(got-want) / scale }

// finiteBody reports whether the pose and velocity of e are finite.
func (s *sim) finiteBody(e arche.Entity) bool {
	t, v := s.transform(e), s.v(e)
	return t.IsValid() && v.Lin.IsFinite() && components.IsFinite(v.Ang)
}

// energy returns the kinetic plus potential energy of the dynamic bodies
// listed, for gravity g: sum 1/2 m v^2 + 1/2 I w^2 - m g.x.
func (s *sim) energy(es []arche.Entity, g components.Vec2) float64 {
	e := 0.0
	for _, b := range es {
		m := s.mass.Get(b)
		v := s.v(b)
		x := s.pos(b)
		e += 0.5*m.Mass*v.Lin.LenSq() + 0.5*m.Inertia*v.Ang*v.Ang - m.Mass*g.Dot(x)
	}
	return e
}
