package systems_test

import (
	"fmt"
	"testing"

	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// BenchmarkJointChains steps 200 chains of 10 links (2 000 bodies, 2 000
// revolute joints with limits) that fell into a heap on the ground, 2 s
// after they were let go, on 1 and 2 workers: what a scene of many
// jointed bodies costs per tick. The heap is one island, coloured, its
// joints solved on one worker between the colours' stages.
func BenchmarkJointChains(b *testing.B) {
	for _, workers := range []int{1, 2} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			s := newSim(b, func(c *systems.Config) { c.Workers, c.Sleep = workers, false })
			s.add(staticBox(0, -0.5, 30, 0.5, 0))
			for c := 0; c < 200; c++ {
				x0, y0 := -20+2*float64(c%20), 2+1.5*float64(c/20)
				prev := s.add(dynCircle(x0, y0, 0.15))
				for i := 0; i < 9; i++ {
					at := components.V(x0+0.15+0.3*float64(i), y0)
					link := s.add(dynBox(at.X+0.15, y0, 0.15, 0.05))
					j, err := ecs.RevoluteJoint(s.w, prev, link, at)
					j.EnableLimit, j.Lower, j.Upper = true, -1, 1
					s.joint(j, err)
					prev = link
				}
			}
			s.run(120)
			b.ResetTimer()
			for range b.N {
				s.p.Update(s.w)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/1e6, "ms/step")
			b.ReportMetric(float64(s.profile().Colored), "coloured")
		})
	}
}
