package solver

import (
	"math"
	"math/rand/v2"
	"testing"
)

// smallAngle matches math.Atan2 to rounding on unit vectors at any angle,
// near the switch between its series and Atan2 too.
func TestSmallAngleMatchesAtan2(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	worst := 0.0
	for i := 0; i < 200000; i++ {
		var a float64
		switch i % 3 {
		case 0:
			a = 0.2 * (rng.Float64() - 0.5) // the series
		case 1:
			a = math.Atan(0.1) * (1 + 1e-3*(rng.Float64()-0.5)) // the switch
			if i%2 == 0 {
				a = -a
			}
		default:
			a = 2 * math.Pi * (rng.Float64() - 0.5)
		}
		s, c := math.Sin(a), math.Cos(a)
		got, want := smallAngle(s, c), math.Atan2(s, c)
		worst = math.Max(worst, math.Abs(got-want))
	}
	if worst > 1e-16 {
		t.Errorf("smallAngle is off math.Atan2 by up to %.3g", worst)
	}
}
