package systems_test

import (
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/systems"
)

// overlapColumn builds ten unit boxes in a column on the ground, each
// created d deep into the one below (the first d into the ground), runs 5
// s, and returns the top box's highest rise above its resting height (9.5
// m), the peak speed of any box, and the top box's final position.
func overlapColumn(t *testing.T, d, deep float64) (rise, peak float64, top [2]float64) {
	s := newSim(t, func(c *systems.Config) { c.DeepOverlap = deep })
	s.add(ground())
	var es []arche.Entity
	for i := 0; i < 10; i++ {
		es = append(es, s.add(dynBox(0, 0.5-d+float64(i)*(1-d), 0.5, 0.5)))
	}
	high := 0.0
	for step := 0; step < 300; step++ {
		s.run(1)
		for _, e := range es {
			v := s.v(e)
			peak = math.Max(peak, math.Hypot(v.Lin.X, v.Lin.Y))
		}
		high = math.Max(high, s.pos(es[9]).Y)
	}
	p := s.pos(es[9])
	return high - 9.5, peak, [2]float64{p.X, p.Y}
}

// TestPhysicsDeepOverlapColumn: with Config.DeepOverlap 0.01, a column of
// boxes created overlapping comes apart without throwing its top box, and
// stands, from 5 to 40 cm of overlap per contact (before the substeps'
// energy bound, solver/stepbound.go: up to 25 cm, where the top rose 1.4
// m). At the default (0, the full push-out rate at any depth, as in Box2D)
// the pushes add up along the column: the top box rises 0.03 m at 5 cm
// and 0.4 m at 10 cm (before the bound 1 m and 4.7 m; Box2D v3.2: no rise
// at 5 cm, 0.5 m at 10 cm, 6.4 m at 25 cm and the column falls).
func TestPhysicsDeepOverlapColumn(t *testing.T) {
	for _, d := range []float64{0.05, 0.10, 0.25, 0.40} {
		rise, peak, top := overlapColumn(t, d, 0.01)
		t.Logf("overlap %.2f m: top rose %.3f m, peak speed %.2f m/s, top ends at (%.3f, %.3f)", d, rise, peak, top[0], top[1])
		if rise > 0.02 || math.Abs(top[0]) > 0.05 || math.Abs(top[1]-9.5) > 0.05 {
			t.Errorf("overlap %.2f m: top rose %.3f m (want <= 0.02), ends at (%.3f, %.3f) (want within 5 cm of (0, 9.5))",
				d, rise, top[0], top[1])
		}
	}
	if rise, _, _ := overlapColumn(t, 0.05, 0); rise > 0.1 {
		t.Errorf("DeepOverlap 0: top rose %.3f m at 5 cm overlap (want <= 0.1)", rise)
	}
	if rise, _, _ := overlapColumn(t, 0.10, 0); rise < 0.2 {
		t.Errorf("DeepOverlap 0: top rose %.3f m at 10 cm overlap; the test expects the full-rate push to throw it (about 0.4 m), or the setting changes nothing", rise)
	}
}
