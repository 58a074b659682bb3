package narrowphase

import (
	"math"

	"github.com/tumble2d/tumble/components"
)

// Sweep is the motion of a body over one step: its origin moves from P by D
// and its rotation turns from R by Angle radians, both at constant rates, so
// that At(0) is the start pose and At(1) the end pose.
type Sweep struct {
	P     components.Vec2 // origin at the start, m
	D     components.Vec2 // displacement over the step, m
	R     components.Rot  // rotation at the start
	Angle float64         // rotation over the step, rad
}

// At returns the pose at fraction t of the sweep.
func (s *Sweep) At(t float64) components.Transform {
	if s.Angle == 0 {
		return components.Transform{P: s.P.MulAdd(t, s.D), R: s.R}
	}
	return components.Transform{P: s.P.MulAdd(t, s.D), R: components.NewRot(t * s.Angle).Mul(s.R)}
}

// maxAdvances bounds the steps of TimeOfImpact. A head-on approach needs
// one or two; a spinning box skimming past a corner takes the most, and
// stops short of the contact, never past it, when the bound is reached.
const maxAdvances = 30

// TimeOfImpact returns the first fraction t of sweep at which shape a comes
// within target (m, > 0) of shape b resting at xfB, and whether it does
// within the sweep. At the fraction returned the gap is at least target,
// give or take round-off, and at most target*1.25 unless the search ran out
// of steps (then it is larger: the body stops early, never late). A pair
// already within target*1.25 at the start returns (0, true).
//
// The search is conservative advancement (Mirtich, "Impulse-based Dynamic
// Simulation of Rigid Body Systems", 1996): at the current fraction the
// exact distance d and its direction n give the separation along n, and no
// point of a moves toward b along n faster than D.n + |Angle| r per unit of
// t, with r the distance of a's farthest point from its origin (0 for a
// circle, whose outline a turn does not move). So the fraction can advance
// by (d - target) / (D.n + |Angle| r) without the gap along n, and so the
// distance, dropping below target. When that rate is not positive, a only
// moves away along an axis that already separates it by more than target,
// and it never comes closer. Box2D v3 finds the same fraction by root
// finding on separating axes (b2TimeOfImpact); for one moving body against
// a static one, this simpler search is enough.
func TimeOfImpact(a components.Shape, sweep *Sweep, b components.Shape, xfB components.Transform, target float64) (float64, bool) {
	r := 0.0
	if a.Kind == components.ShapeBox {
		r = a.MaxExtent()
	}
	spin := math.Abs(sweep.Angle) * r
	tol := 0.25 * target
	t := 0.0
	for range maxAdvances {
		d, n := Distance(a, sweep.At(t), b, xfB)
		if d <= target+tol {
			return t, true
		}
		rate := sweep.D.Dot(n) + spin
		if !(rate > 0) {
			return 1, false
		}
		t += (d - target) / rate
		if !(t < 1) {
			return 1, false
		}
	}
	return t, true
}
