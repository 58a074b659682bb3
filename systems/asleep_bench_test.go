package systems_test

import (
	"fmt"
	"testing"

	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// BenchmarkStepAsleep steps a world of n boxes that sleep on a static
// ground, with nothing awake: what a large, quiet level costs per tick. It
// reports ns per sleeping body; every tick still reads each body's
// components, since a game may write them between ticks (see
// frozenRows.begin).
func BenchmarkStepAsleep(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			s := newSim(b, func(c *systems.Config) { c.Workers = 1 })
			s.add(staticBox(0, -0.5, 2000, 0.5, 0))
			side := 1
			for side*side < n {
				side++
			}
			defs := make([]ecs.BodyDef, n)
			for i := range defs {
				defs[i] = dynBox(0.5*float64(i%side-side/2), 0.1+0.2*float64(i/side), 0.1, 0.1)
				defs[i].StartAsleep = true
			}
			if _, err := ecs.NewBodies(s.w, defs, nil); err != nil {
				b.Fatal(err)
			}
			s.run(2)
			b.ResetTimer()
			for range b.N {
				s.p.Update(s.w)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/body")
		})
	}
}
