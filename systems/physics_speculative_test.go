package systems_test

import (
	"testing"

	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/systems"
)

// TestCoMovingBodiesMakeNoContact checks that the speculative margin follows
// the relative motion: two balls falling side by side at 20 m/s, 5 cm apart,
// cannot touch within a step, so they make no contact. (Summing their speeds
// gave a 0.69 m margin: every neighbour in a rain was a contact.)
func TestCoMovingBodiesMakeNoContact(t *testing.T) {
	s := newSim(t, nil)
	for _, x := range []float64{0, 1.05} {
		d := dynCircle(x, 100, 0.5)
		d.LinearVelocity = components.V(0, -20)
		s.add(d)
	}
	s.run(1)
	if c := s.profile().Contacts; c != 0 {
		t.Fatalf("%d contacts between two balls falling side by side 5 cm apart, want 0", c)
	}
}

// TestHeadOnBallsMeetWithinAStep checks the other side of the same bound:
// two balls 0.6 m apart closing at 60 m/s would pass through each other in
// one step (1 m) unless the speculative contact catches them. They must
// collide, not tunnel, and end on their own sides.
func TestHeadOnBallsMeetWithinAStep(t *testing.T) {
	s := newSim(t, func(c *systems.Config) { c.Gravity = components.Vec2{} })
	a := dynCircle(-0.8, 0, 0.5)
	a.LinearVelocity = components.V(30, 0)
	b := dynCircle(0.8, 0, 0.5)
	b.LinearVelocity = components.V(-30, 0)
	ea, eb := s.add(a), s.add(b)
	s.run(1)
	if c := s.profile().Contacts; c != 1 {
		t.Fatalf("%d contacts after the first step, want 1 (speculative)", c)
	}
	s.run(10)
	pa, pb := s.pos(ea), s.pos(eb)
	if !(pa.X < pb.X) || pb.X-pa.X < 1-0.01 {
		t.Fatalf("balls at x = %.4f and %.4f: they passed through or overlap (want a gap of at least 1 m between centres)", pa.X, pb.X)
	}
}
