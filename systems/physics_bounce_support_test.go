package systems_test

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// TestPhysicsBounceOffRestingBody drops a ball (or a box) with e = 0.8 from
// 2 m onto the top of a column of one or three 1 m boxes (e = 0) resting on
// the ground, at densities that make the projectile 10 times lighter to 5
// times heavier than a box. The bounce must carry through the column to the
// ground as it does off the ground itself: the first apex within 15 % of e^2
// H (off the ground the same drop reaches 94-99 %). Before settleBounces it
// reached 62 % off one box of the same density, 3 % off a box a tenth as
// dense and 0 % for a heavy ball on three boxes. The column's top box may
// not move sideways by more than 1 cm, and every box must be asleep 10 s
// later.
func TestPhysicsBounceOffRestingBody(t *testing.T) {
	const e, H = 0.8, 2.0
	for _, boxes := range []int{1, 3} {
		for _, dens := range []float64{0.1, 1, 5} {
			for _, projBox := range []bool{false, true} {
				t.Run(fmt.Sprintf("boxes=%d/density=%g/box=%v", boxes, dens, projBox), func(t *testing.T) {
					s := newSim(t, nil)
					s.add(ground())
					var column []arche.Entity
					for i := range boxes {
						column = append(column, s.add(dynBox(0, 0.5+float64(i), 0.5, 0.5)))
					}
					s.run(120)
					top := column[boxes-1]
					surface := func() float64 { return s.pos(top).Y + 0.5 }
					x0 := s.pos(top).X
					d := dynCircle(0.05, surface()+0.25+H, 0.25)
					if projBox {
						d = dynBox(0.05, surface()+0.25+H, 0.25, 0.25)
					}
					d.Restitution, d.Density = e, dens
					p := s.add(d)
					apex, rose, drift := -1.0, false, 0.0
					for i := 0; i < 300 && apex < 0; i++ {
						s.run(1)
						drift = math.Max(drift, math.Abs(s.pos(top).X-x0))
						v := s.v(p).Lin.Y
						rose = rose || v > 0
						if rose && v <= 0 {
							apex = s.pos(p).Y - 0.25 - surface()
						}
					}
					if r := apex / (e * e * H); !(r > 0.85 && r < 1.01) {
						t.Errorf("first apex %.3f m above the column, %.1f %% of e^2 H", apex, 100*r)
					}
					if drift > 0.01 {
						t.Errorf("the column's top box moved %.4f m sideways", drift)
					}
					s.run(600)
					for i, b := range column {
						if !s.asleep(b) {
							t.Errorf("box %d of the column is awake 10 s later", i)
						}
					}
				})
			}
		}
	}
}

// TestPhysicsSmallDropsGainNoEnergy drops 100 random small scenes onto the
// ground: 2 to 7 boxes and discs of 0.1-0.5 m, densities 0.1-10, friction
// and restitution up to 1 on the bodies and the ground, one above the
// other. Their energy (kinetic plus potential) may never rise above its
// start by more than 1e-6 of it in 5 s. With the warm start of the impulses
// of an impact (before settleBounces started a bounced island cold), 3 of
// 300 such scenes rose above their start, by up to 11 %.
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

// TestPhysicsNewtonsCradle strikes a row of three balls with e = 1 at 5 m/s
// in zero gravity. With gaps of 5 cm the strike passes from ball to ball and
// the last leaves at 5 m/s while the others stop. Touching, the row is struck
// as one body (settleBounces): the row leaves together at 2.5 m/s and the
// striker bounces back at 2.5 m/s, both to 1e-3, and the energy is kept.
func TestPhysicsNewtonsCradle(t *testing.T) {
	for _, gap := range []float64{0.05, 0} {
		s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{} })
		var row []arche.Entity
		for i := range 3 {
			d := dynCircle(float64(i)*(0.5+gap), 0, 0.25)
			d.Restitution, d.Friction = 1, 0
			row = append(row, s.add(d))
		}
		d := ecs.DefaultBodyDef()
		d.Shape, d.Position, d.LinearVelocity = components.Circle(0.25), components.V(-2, 0), components.V(5, 0)
		d.Restitution, d.Friction = 1, 0
		striker := s.add(d)
		s.run(60)
		want := []float64{-2.5, 2.5, 2.5, 2.5}
		if gap > 0 {
			want = []float64{0, 0, 0, 5}
		}
		for i, b := range append([]arche.Entity{striker}, row...) {
			if v := s.v(b).Lin.X; math.Abs(v-want[i]) > 1e-3 {
				t.Errorf("gap %g: ball %d leaves at %.4f m/s, want %g", gap, i, v, want[i])
			}
		}
	}
}
