package systems_test

import (
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/systems"
)

func TestZZDebugStack(t *testing.T) {
	for _, n := range []int{5, 10, 20} {
	for _, sub := range []int{4, 8} {
	s := newSim(t, func(c *systems.Config) { c.SubSteps = sub })
	s.add(ground())
	var boxes []arche.Entity
	for i := 0; i < n; i++ {
		boxes = append(boxes, s.add(dynBox(0, 0.5+float64(i), 0.5, 0.5)))
	}
	top := boxes[n-1]
	for k := 0; k < 8; k++ {
		s.run(8)
		pr := s.profile()
		t.Logf("n %d sub %d tick %d top %v angle %.3g vel %+v contacts %d points %d asleep %v", n, sub, s.step, s.pos(top), s.angle(top), s.v(top), pr.Contacts, pr.Points, s.asleep(top))
	}
	for i, b := range boxes {
		if i%4 == 0 {
		t.Logf("  box %d %v angle %.3g", i, s.pos(b), s.angle(b))
		}
	}
	}
	}
}
