package narrowphase_test

import (
	"fmt"

	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/narrowphase"
)

// A ball of radius 0.1 m at 300 m/s covers 5 m in a step of 1/60 s, through a
// wall 0.1 m thick. The sweep finds where it first comes within the linear
// slop of the wall.
func ExampleTimeOfImpact() {
	ball := components.Circle(0.1)
	wall := components.Box(0.05, 2)
	sweep := narrowphase.Sweep{P: components.V(-3, 0), D: components.V(5, 0), R: components.Identity}
	t, hit := narrowphase.TimeOfImpact(ball, &sweep, wall, components.NewTransform(0, 0, 0), narrowphase.LinearSlop)
	fmt.Printf("hit %v at %.3f of the step, centre at x = %.3f\n", hit, t, sweep.At(t).P.X)
	// Output: hit true at 0.569 of the step, centre at x = -0.155
}
