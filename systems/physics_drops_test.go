package systems_test

import (
	"math"
	"math/rand/v2"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
)

// TestPhysicsSmallDropsGainNoEnergy drops 100 random small scenes onto the
// ground: 2 to 7 boxes and discs of 0.1-0.5 m, densities 0.1-10, friction
// and restitution up to 1 on the bodies and the ground, one above the
// other. Their energy (kinetic plus potential) may never rise above its
// start by more than 1e-6 of it in 5 s: the restitution pass and its island
// bound (solver/energy.go) may give back only what the impacts took. A
// settling pass tried after the restitution (docs/behaviour.md, "Known limits":
// bouncing on a body that rests on another), with the impulses of the impact warm-started into the
// next step, failed it in 3 of 300 such scenes, by up to 11 %.
func TestPhysicsSmallDropsGainNoEnergy(t *testing.T) {
	for seed := uint64(1); seed <= 100; seed++ {
		rng := rand.New(rand.NewPCG(seed, 11))
		s := newSim(t, nil)
		g := ground()
		g.Restitution, g.Friction = rng.Float64(), rng.Float64()
		s.add(g)
		n := 2 + rng.IntN(6)
		var es []arche.Entity
		for i := range n {
			x, y := -1.5+3*rng.Float64(), 0.6+1.1*float64(i)
			size := 0.1 + 0.4*rng.Float64()
			d := dynCircle(x, y, size)
			if rng.IntN(2) == 0 {
				d = dynBox(x, y, size, 0.1+0.4*rng.Float64())
				d.Angle = 0.3 * rng.Float64()
			}
			d.Density = math.Pow(10, 2*rng.Float64()-1)
			d.Restitution, d.Friction = rng.Float64(), rng.Float64()
			es = append(es, s.add(d))
		}
		g0 := components.V(0, -10)
		e0 := s.energy(es, g0)
		for i := 1; i <= 300; i++ {
			s.run(1)
			if en := s.energy(es, g0); en > e0+1e-6*math.Abs(e0) {
				t.Fatalf("seed %d, tick %d: energy %.6f J above its start %.6f J", seed, i, en, e0)
			}
		}
	}
}
