package components

import (
	"math"
	"testing"
)

func TestIsFinite(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want bool
	}{
		{0, true}, {math.Copysign(0, -1), true}, {1, true}, {-1e300, true},
		{math.MaxFloat64, true}, {-math.MaxFloat64, true}, {math.SmallestNonzeroFloat64, true},
		{math.Inf(1), false}, {math.Inf(-1), false}, {math.NaN(), false},
		{math.Float64frombits(0xfff8000000000001), false}, // a negative NaN with a payload
	} {
		if got := IsFinite(c.x); got != c.want {
			t.Errorf("IsFinite(%v) = %v, want %v", c.x, got, c.want)
		}
		if got := (Vec2{c.x, 1}).IsFinite(); got != c.want {
			t.Errorf("Vec2{%v, 1}.IsFinite() = %v, want %v", c.x, got, c.want)
		}
	}
}
