package solver

import (
	"math"

	"github.com/tumble2d/tumble/components"
)

// Kind says how a contact side or a body row moves.
type Kind uint8

const (
	// KindStatic bodies never move and have no row ([Contact] index -1).
	KindStatic Kind = iota
	// KindDynamic bodies are moved by the solver.
	KindDynamic
	// KindKinematic bodies move by their own constant velocity; the solver
	// reads but never writes them.
	KindKinematic
)

// BodyState is the hot per-body row of an awake body, read and written in
// the innermost loops: velocity, and the change of position and rotation
// since the start of the step. Storing deltas instead of poses keeps the
// separation update precise far from the origin (Box2D v3 b2BodyState).
//
// It is padded to 64 bytes, one cache line: the contacts of one colour
// touch distinct bodies, but on 56-byte rows two workers would still write
// the same line (false sharing), which measured slower on 2 workers than
// on 1 on large_pyramid.
type BodyState struct {
	V  components.Vec2 // linear velocity, m/s
	W  float64         // angular velocity, rad/s
	DP components.Vec2 // position change this step, m
	DQ components.Rot  // rotation change this step
	_  float64
}

// BodySim is the cold per-body row: what integration needs besides the state.
type BodySim struct {
	X              components.Transform // pose at the start of the step
	InvMass        float64
	InvInertia     float64
	Force          components.Vec2 // applied force this step, N
	Torque         float64         // applied torque this step, N m
	GravityScale   float64
	LinearDamping  float64
	AngularDamping float64
	MaxExtent      float64 // largest distance from the centre to the shape, m
	// Turn is the rotation this step of a round body, whose DQ stays the
	// identity: a circle's outline does not move as it turns, so the point
	// of a contact on it stays on the normal. Rotated with the body, the
	// anchor of a rolling ball rose off the ground within the step (by
	// r (1 - cos a) for a turn a), its contact went speculative, and the
	// ball fell freely for the rest of the step: a 0.1 m ball rolling at
	// 10 m/s sank 9 mm into the ground every step.
	Turn  components.Rot
	Kind  Kind
	Round bool // the shape is a circle: see Turn
}

// FreeAccel returns the acceleration of a dynamic body without contacts
// under gravity g: g times its gravity scale plus its applied force over its
// mass.
func (s *BodySim) FreeAccel(g components.Vec2) components.Vec2 {
	return g.Scale(s.GravityScale).MulAdd(s.InvMass, s.Force)
}

// integrateVelocities advances the velocities of rows [lo, hi) of list (or of
// rows lo..hi-1 when list is nil) by one substep h: symplectic Euler with the
// damping of Box2D, v' = v/(1 + h c) + h (g s + F/m), then the speed caps.
func integrateVelocities(p *stepParams, bodies []BodyState, sims []BodySim, list []int32, lo, hi int) {
	for k := lo; k < hi; k++ {
		i := int32(k)
		if list != nil {
			i = list[k]
		}
		sim := &sims[i]
		if sim.Kind != KindDynamic {
			continue
		}
		st := &bodies[i]
		v, w := st.V, st.W
		// Damping is an implicit decay, v / (1 + h c): stable for any c.
		if sim.LinearDamping != 0 {
			v = v.Scale(1 / (1 + p.h*sim.LinearDamping))
		}
		if sim.AngularDamping != 0 {
			w *= 1 / (1 + p.h*sim.AngularDamping)
		}
		v = v.MulAdd(p.h, sim.FreeAccel(p.gravity))
		w += p.h * sim.InvInertia * sim.Torque
		// capSpeeds returns v and w unchanged within the limits (a w of
		// -0 too), and does not inline: called only beyond them (or for a
		// NaN), the integration took 8.1-8.4 ns a body and substep in
		// BenchmarkIntegrate against 9.2-9.5 (three runs each way).
		if v.X*v.X+v.Y*v.Y > p.maxSpeed*p.maxSpeed || !(math.Abs(w) <= p.maxAngularSpeed) {
			v, w = capSpeeds(v, w, p.maxSpeed, p.maxAngularSpeed)
		}
		st.V, st.W = v, w
	}
}

// integratePositions advances the position and rotation deltas of the
// dynamic rows by one substep.
func integratePositions(p *stepParams, bodies []BodyState, sims []BodySim, list []int32, lo, hi int) {
	for k := lo; k < hi; k++ {
		i := int32(k)
		if list != nil {
			i = list[k]
		}
		if sims[i].Kind != KindDynamic {
			continue
		}
		st := &bodies[i]
		if sim := &sims[i]; sim.Round {
			sim.Turn = sim.Turn.Integrate(p.h * st.W)
		} else {
			st.DQ = st.DQ.Integrate(p.h * st.W)
		}
		st.DP = st.DP.MulAdd(p.h, st.V)
	}
}

// FinalPose returns the pose of a body at the end of the step from its start
// pose and state. Kinematic bodies move exactly by their velocity over dt.
func FinalPose(sim *BodySim, st *BodyState, dt float64) components.Transform {
	switch sim.Kind {
	case KindDynamic:
		return components.Transform{P: sim.X.P.Add(st.DP), R: sim.Rotation(st).Mul(sim.X.R).Normalize()}
	case KindKinematic:
		return components.Transform{P: sim.X.P.MulAdd(dt, st.V), R: components.NewRot(dt * st.W).Mul(sim.X.R).Normalize()}
	}
	return sim.X
}

// Rotation returns the turn of a dynamic body so far this step: its DQ, or
// Turn for a round body.
func (s *BodySim) Rotation(st *BodyState) components.Rot {
	if s.Round {
		return s.Turn
	}
	return st.DQ
}

// Rewind puts a dynamic body back at fraction t of its motion this step (a
// straight path and a constant turn) and keeps its velocity: the engine's
// sweep of fast bodies moves them back to their time of impact.
func (s *BodySim) Rewind(st *BodyState, t float64) {
	st.DP = st.DP.Scale(t)
	q := components.NewRot(t * s.Rotation(st).Angle())
	if s.Round {
		s.Turn = q
	} else {
		st.DQ = q
	}
}

// capSpeeds clamps runaway speeds, as Box2D v3 does before the contacts:
// the linear speed to maxSpeed, and the turn of a substep to an eighth of a turn
// (Box2D's B2_MAX_ROTATION), beyond which the anchors of a contact rotate
// too far for its linearised separation: a box dropped on the ground
// spinning at 5000 rad/s launched itself 150 m high. Contacts solved after
// the clamp may still speed a body up.
func capSpeeds(v components.Vec2, w, maxSpeed, maxAngularSpeed float64) (components.Vec2, float64) {
	if vv := v.LenSq(); vv > maxSpeed*maxSpeed {
		l := math.Sqrt(vv)
		if math.IsInf(vv, 1) { // |v| > 1.3e154: the square overflowed
			if math.IsInf(v.X, 0) || math.IsInf(v.Y, 0) {
				// A force beyond float64 (1e308 N on a light body): keep
				// the direction of the infinite part.
				v = components.V(infSign(v.X), infSign(v.Y))
			}
			l = math.Hypot(v.X, v.Y)
		}
		v = v.Scale(maxSpeed / l)
	}
	return v, max(-maxAngularSpeed, min(w, maxAngularSpeed))
}

// infSign returns the sign of x if x is infinite, else 0.
func infSign(x float64) float64 {
	if math.IsInf(x, 0) {
		return math.Copysign(1, x)
	}
	return 0
}

// CapSpeeds returns v and w clamped as the solver clamps a dynamic body's
// velocity in each substep: at most MaxLinearSpeed, and an eighth of a turn per
// substep. The broad phase grows a body's box by the motion it can make,
// which is the capped one.
func (p *Params) CapSpeeds(v components.Vec2, w float64) (components.Vec2, float64) {
	return capSpeeds(v, w, p.MaxLinearSpeed, p.MaxAngularSpeed())
}
