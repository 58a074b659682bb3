package systems_test

import (
	"math"
	"math/rand/v2"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// containerScene adds a static container: a floor whose top is y = 0 and two
// walls at x = -halfWidth and x = +halfWidth (inner faces), 20 m tall.
func containerScene(s *sim, halfWidth float64) {
	s.add(staticBox(0, -0.5, halfWidth+1, 0.5, 0))
	s.add(staticBox(-halfWidth-0.5, 10, 0.5, 10, 0))
	s.add(staticBox(halfWidth+0.5, 10, 0.5, 10, 0))
}

// pileDefs returns n boxes and circles (alternating, random sizes 0.15 to 0.4
// m, random angles and small random velocities, restitution e) on a grid of
// 1 m cells starting at height y0, cols to a row, centred on x = 0, so that
// none overlap.
func pileDefs(rng *rand.Rand, n, cols int, y0, e float64) []ecs.BodyDef {
	defs := make([]ecs.BodyDef, 0, n)
	for i := 0; i < n; i++ {
		x := (float64(i%cols) - float64(cols-1)/2) * 1.0
		y := y0 + float64(i/cols)*1.0
		var d ecs.BodyDef
		if i%2 == 0 {
			d = dynBox(x, y, 0.15+0.25*rng.Float64(), 0.15+0.25*rng.Float64())
			d.Angle = rng.Float64() * math.Pi
		} else {
			d = dynCircle(x, y, 0.15+0.25*rng.Float64())
		}
		d.LinearVelocity = components.V(rng.Float64()-0.5, rng.Float64()-0.5)
		d.AngularVelocity = 2 * (rng.Float64() - 0.5)
		d.Restitution = e
		defs = append(defs, d)
	}
	return defs
}

// TestPhysicsEnergyNeverGrows drops a pile of 50 boxes and circles with
// restitution 0 into a container. The total energy sum (1/2 m v^2 + 1/2 I w^2
// + m g y), measured after every tick for 6 s, must never exceed its initial
// value: free flight under symplectic Euler loses g^2 h^2 / 2 per substep
// and unit mass, inelastic contacts and friction only remove energy. The
// soft contact's push-out can add a little potential energy where bodies
// overlap, but only within the energy the impacts already removed.
// Tolerance: 1e-6 relative to the initial energy (measured relative to the
// floor, so it is positive). No NaN may appear.
func TestPhysicsEnergyNeverGrows(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Workers = 2 })
	containerScene(s, 4)
	g := s.cfg.Gravity
	defs := pileDefs(rand.New(rand.NewPCG(1, 2)), 50, 7, 1, 0)
	es, err := ecs.NewBodies(s.w, defs, nil)
	if err != nil {
		t.Fatal(err)
	}
	e0 := s.energy(es, g)
	worst, worstTick := math.Inf(-1), 0
	prev, rise, riseTick := e0, 0.0, 0
	for i := 1; i <= 360; i++ {
		s.run(1)
		for _, e := range es {
			if !s.finiteBody(e) {
				t.Fatalf("tick %d: body %v has a non-finite state %+v %+v", i, e, s.transform(e), s.v(e))
			}
		}
		en := s.energy(es, g)
		if d := (en - prev) / e0; d > rise {
			rise, riseTick = d, i
		}
		prev = en
		if r := (en - e0) / e0; r > worst {
			worst, worstTick = r, i
		}
		if en > e0*(1+1e-6) {
			t.Fatalf("tick %d: energy %.9g exceeds the initial %.9g by %.3g relative (tolerance 1e-6)", i, en, e0, (en-e0)/e0)
		}
	}
	asleep := 0
	for _, e := range es {
		if s.asleep(e) {
			asleep++
		}
	}
	t.Logf("largest tick-to-tick energy rise: %.3g of E0 at tick %d", rise, riseTick)
	t.Logf("initial energy %.4f J, final %.4f J; largest (E - E0)/E0 = %.3g at tick %d (tol 1e-6); %d of %d asleep after 6 s",
		e0, s.energy(es, g), worst, worstTick, asleep, len(es))
	checkInContainer(t, s, es, 4)
}

// checkInContainer fails if a body left the container (tunnelled).
func checkInContainer(t *testing.T, s *sim, es []arche.Entity, halfWidth float64) {
	t.Helper()
	for _, e := range es {
		p := s.pos(e)
		if p.Y < -0.05 || math.Abs(p.X) > halfWidth+0.05 {
			t.Errorf("body %v at %v left the container", e, p)
		}
	}
}
