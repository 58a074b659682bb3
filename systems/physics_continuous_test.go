package systems_test

import (
	"fmt"
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"

	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/systems"
)

// TestPhysicsContinuousThinWall throws small circles and boxes at a static
// wall 0.1 m thick, at 50 to 399 m/s (MaxLinearSpeed is 400), head-on and up
// to 75 degrees off its normal, spinning or not, with and without friction,
// with the whole scene turned to an odd angle: no body may end a step past
// the wall's near face. The speculative contacts alone let some through
// (a circle at 200 m/s and 60 degrees, a box at 399 m/s head-on, a box
// spinning at 50 rad/s at 300 m/s); the sweep of fast bodies stops them.
func TestPhysicsContinuousThinWall(t *testing.T) {
	const face = -0.05 // the wall's near face, in the scene's frame
	frame := components.NewRot(0.37)
	for _, speed := range []float64{50, 150, 300, 399} {
		for _, deg := range []float64{0, 30, 60, 75} {
			for _, spin := range []float64{0, 50} {
				for _, friction := range []float64{0, 0.6} {
					for _, circle := range []bool{true, false} {
						name := fmt.Sprintf("%v m/s %v deg spin %v friction %v circle %v", speed, deg, spin, friction, circle)
						s := newSim(t, func(c *systems.Config) { c.Workers = 1; c.Gravity = components.Vec2{} })
						w := staticBox(0, 0, 0.05, 200, frame.Angle()) // longer than 30 steps of the fastest slide
						w.Friction = friction
						s.add(w)
						start := frame.Rotate(components.V(-3, 0))
						d := dynBox(start.X, start.Y, 0.1, 0.1)
						if circle {
							d = dynCircle(start.X, start.Y, 0.1)
						}
						a := deg * math.Pi / 180
						d.LinearVelocity = frame.Rotate(components.V(speed*math.Cos(a), speed*math.Sin(a)))
						d.AngularVelocity = spin
						d.Friction = friction
						b := s.add(d)
						for i := range 30 {
							s.run(1)
							if x := frame.InvRotate(s.pos(b)).X; !(x < face) {
								t.Fatalf("%s: step %d: centre at %.4f, past the wall's face at %v", name, i, x, face)
							}
						}
					}
				}
			}
		}
	}
}

// TestPhysicsContinuousSlidingIntoWall: a box sliding along the ground at
// up to 399 m/s touches the ground all the way, so its sweep against the
// ground starts in contact. The ground must not hold it back (the circle
// round its centre is swept against it instead), and a thin wall 60 m tall
// standing on the ground, upright or leaning either way, must stop it.
func TestPhysicsContinuousSlidingIntoWall(t *testing.T) {
	const half = 30 // the wall's half height
	for _, lean := range []float64{0, 0.3, -0.3} {
		for _, speed := range []float64{100, 300, 399} {
			s := newSim(t, func(c *systems.Config) { c.Workers = 1 })
			g := ground()
			g.Friction = 0
			s.add(g)
			// The wall's foot is at (10, 0), and it leans by lean.
			wall := components.Transform{P: components.V(10, 0), R: components.NewRot(lean)}
			wall.P = wall.Apply(components.V(0, half))
			s.add(staticBox(wall.P.X, wall.P.Y, 0.02, half, lean))
			d := dynBox(0, 0.1, 0.1, 0.1)
			d.Friction = 0
			d.LinearVelocity = components.V(speed, 0)
			b := s.add(d)
			swept, reach := 0, 0.0
			for i := range 30 {
				s.run(1)
				swept += s.profile().Swept
				reach = max(reach, s.pos(b).X)
				if l := wall.InvApply(s.pos(b)); !(l.X < -0.02) && l.Y < half {
					t.Fatalf("lean %v speed %v: step %d: box centre %.4f m along the wall's normal, past its face at -0.02",
						lean, speed, i, l.X)
				}
			}
			if swept == 0 {
				t.Fatalf("lean %v speed %v: the box was never swept", lean, speed)
			}
			if reach < 9 {
				t.Fatalf("lean %v speed %v: the box got no farther than x = %.3f, short of the wall", lean, speed, reach)
			}
		}
	}
}

// TestPhysicsContinuousLeavesSlowBodies: bodies that move less than half
// their size in a step are not swept, and a resting stack keeps its poses
// exactly as without continuous collision (none of its bodies is fast).
func TestPhysicsContinuousLeavesSlowBodies(t *testing.T) {
	s := newSim(t, nil)
	s.add(ground())
	for i := range 5 {
		s.add(dynBox(0, 0.5+float64(i), 0.5, 0.5))
	}
	// 0.5 x 0.25 m box: fast above 0.25 * 0.5 / dt = 7.5 m/s.
	slow := dynBox(5, 10, 0.5, 0.25)
	slow.LinearVelocity = components.V(0, -7)
	slow.GravityScale = 0
	s.add(slow)
	for i := range 10 {
		s.run(1)
		if p := s.profile(); p.Swept != 0 {
			t.Fatalf("step %d: %d bodies swept, want 0", i, p.Swept)
		}
	}
}

// TestPhysicsContinuousRainAcrossWorkers: 400 small balls and boxes shot
// down at 150-250 m/s, at up to 30 degrees off the vertical, onto a floor
// 0.1 m thick. They are swept in blocks on every worker; none may end a step
// below the floor's top, and the poses are bit-identical for 1, 2 and 3
// workers.
func TestPhysicsContinuousRainAcrossWorkers(t *testing.T) {
	run := func(workers int) []components.Transform {
		s := newSim(t, func(c *systems.Config) { c.Workers = workers })
		s.add(staticBox(0, -0.05, 60, 0.05, 0))
		var es []arche.Entity
		for i := range 400 {
			x := float64(i%40)*1.5 - 30
			y := 3 + float64(i/40)*0.5
			d := dynCircle(x, y, 0.05)
			if i%3 == 0 {
				d = dynBox(x, y, 0.05, 0.08)
				d.AngularVelocity = float64(i%7) * 10
			}
			speed := 150 + float64(i%11)*10
			a := (float64(i%13)/12 - 0.5) * math.Pi / 3
			d.LinearVelocity = components.V(speed*math.Sin(a), -speed*math.Cos(a))
			es = append(es, s.add(d))
		}
		swept, impacts := 0, 0
		for step := range 20 {
			s.run(1)
			swept += s.profile().Swept
			impacts += s.profile().Impacts
			for k, e := range es {
				if y := s.pos(e).Y; !(y > 0) {
					t.Fatalf("workers %d step %d: body %d at y = %.4f, below the floor's top", workers, step, k, y)
				}
			}
		}
		t.Logf("workers %d: swept %d impacts %d", workers, swept, impacts)
		if swept < 400 || impacts < 100 {
			t.Fatalf("workers %d: %d sweeps and %d impacts over 20 steps; the rain was meant to be swept", workers, swept, impacts)
		}
		out := make([]components.Transform, len(es))
		for k, e := range es {
			out[k] = s.transform(e)
		}
		return out
	}
	want := run(1)
	for _, workers := range []int{2, 3} {
		got := run(workers)
		for k := range want {
			if got[k] != want[k] {
				t.Fatalf("workers %d: body %d at %+v, with 1 worker %+v", workers, k, got[k], want[k])
			}
		}
	}
}
