package components

import (
	"math"
	"testing"
)

// TestRotIntegrate checks Integrate's turn against the exact one: within
// its series' error 2 da^7/945 (taken at 1.5 times, plus rounding) up to an
// eighth of a turn, and past it growing with da but under a quarter turn.
func TestRotIntegrate(t *testing.T) {
	q := NewRot(0.3)
	turn := func(da float64) float64 {
		return q.InvMul(q.Integrate(da)).Angle()
	}
	for i := -200; i <= 200; i++ {
		da := float64(i) / 200 * math.Pi / 4
		bound := 1.5*2*math.Pow(math.Abs(da), 7)/945 + 1e-15
		if err := math.Abs(turn(da) - da); err > bound {
			t.Errorf("Integrate(%v) turned %v: error %.3g > %.3g", da, turn(da), err, bound)
		}
		if r := q.Integrate(da); math.Abs(math.Hypot(r.C, r.S)-1) > 1e-15 {
			t.Errorf("Integrate(%v) = %v is not a unit rotation", da, r)
		}
	}
	prev := turn(math.Pi / 4)
	for da := math.Pi/4 + 0.01; da < 1e4; da *= 1.1 {
		a := turn(da)
		if !(a > prev && a < math.Pi/2) || math.Abs(turn(-da)+a) > 1e-14 {
			t.Fatalf("Integrate(%v) turned %v (after %v): want more, under a quarter turn, odd in da", da, a, prev)
		}
		prev = a
	}
}
