package solver

import (
	"math"

	"github.com/tumble2d/tumble/components"
)

// The substeps of an island add no kinetic energy.
//
// Without a bias, each update of a point in the solve and the relax moves
// the velocities towards the set where the point neither approaches nor is
// pulled, and that set holds the zero velocity, so in the metric of the
// masses the update is a projection onto a set through the origin: it never
// raises the kinetic energy. The warm start does not have that property. It
// applies the impulses of the substep before at once, and when they are
// more than the contacts now need, one Gauss-Seidel pass does not take all
// of the excess back. A 1.5 kg box at 6 m/s into a ball resting against a
// wall, with e = 0 and no friction or gravity, went from 12.66 J to 13.28 J
// (+4.9 %) in the tick after the impact, and in 21 of 40 random zero-gravity
// scenes of twelve bodies with e = 0 the kinetic energy rose from one tick
// to the next, by up to 7.1 %. Without the warm start the same scenes rose
// by 0.16 % at most, and the box and ball not at all.
//
// So the substeps of an island may end with at most K0 + max(W, 0) + P of
// kinetic energy, in the frame of its static and kinematic neighbours (see
// energy.go, which uses the same K0, W and frame for the bounce; islands
// without such a frame are left alone there and here). W < 0 when the
// island climbs: bodies sliding up a ramp, or a pile lifted out of its
// overlaps by the soft contacts' springs, whose energy the bound does not
// count. Counting it would take the climb out of the speed of other bodies
// of the island, so a climb is allowed for. P is the energy the push-out
// may give (Contact.pushEnergy), counted only when the bound would act.
// Without it a column of boxes created overlapping lost its speed every
// step and stalled half-way out of its overlaps. Free flight ends below
// K0 + W, and so does symplectic Euler under forces that do no work
// (contacts without bias, static friction) or take energy away (sliding
// friction, damping): the bound touches only a step that made energy.
//
// With it, the box and ball above rise by 1e-4 of their energy (the
// push-out of their overlap after the impact), and a column of two slender
// bricks, which rocked without end at 60 Hz with the warm start feeding it,
// falls asleep within a second.
//
// A step over the bound is scaled back body by body from the velocities
// at its start (stepFactor), so that what the step did not change stays.

// keepStart keeps the velocities of rows at the start of the step, for
// the step bound, and returns their kinetic energy in the frame moving at u.
func (s *Solver) keepStart(rows []int32, u components.Vec2) float64 {
	s.keepVelocities(rows, s.start)
	return s.kinetic(rows, u)
}

// stepFactor decides the step bound of an island whose dynamic rows among
// rows have the sums k, A and B of stepSums, k0 of keepStart: limited
// reports whether the energy k is over bound, and then every body is to
// take v0 + a (v - v0) (blendApply from s.start), after which the island has
// the kinetic energy kb (otherwise kb = k).
//
// a is the largest factor in [0, 1] that meets the bound; a = 0 meets it,
// since bound >= k0. A body whose velocity the step did not change (a ball
// rolling on at constant speed, a disc spinning on a frictionless floor, a
// box sliding on ice under a vertical push) keeps it: scaled as a whole in
// the frame instead, an island with a heavy box bouncing at one end took
// 97 % of the speed of a ball rolling at the other. In a free island (u =
// 0) the change first gives s.start its part that moves the island as one
// rigid body (translation and rotation about the centre of mass), so only
// the rest, which has neither momentum nor angular momentum, is scaled: the
// island keeps the momentum and angular momentum the contacts left it.
func (s *Solver) stepFactor(rows []int32, u components.Vec2, anchored bool, bound, k0, k, A, B float64) (a, kb float64, limited bool) {
	if !(k > bound*(1+energyTol)) || !(bound < math.MaxFloat64) {
		return 1, k, false
	}
	if !anchored {
		s.keepRigid(rows)
		A, B = s.blendSums(rows, u, s.start)
		k0 = s.kineticOf(rows, u, s.start)
	}
	a = blendFactor(A, B, k0, bound)
	return a, k0 + a*B + 0.5*a*a*A, true
}

// keepRigid adds to the start velocities of rows the part of the step's
// change that moves them as one rigid body: the change of the centre of
// mass's velocity, and a turn about it carrying the change of angular
// momentum (bodies with fixed rotation take part by translating only).
func (s *Solver) keepRigid(rows []int32) {
	var c, dp components.Vec2
	var mass float64
	for _, i := range rows {
		sim := &s.Sims[i]
		if sim.Kind != KindDynamic || sim.InvMass == 0 {
			continue
		}
		st, r := &s.Bodies[i], &s.start[i]
		m := 1 / sim.InvMass
		mass += m
		c = c.MulAdd(m, sim.X.P.Add(st.DP))
		dp = dp.MulAdd(m, st.V.Sub(components.V(r.v[0], r.v[1])))
	}
	if !(mass > 0) {
		return
	}
	c, dvc := c.Scale(1/mass), dp.Scale(1/mass)
	var dl, inertia float64
	for _, i := range rows {
		sim := &s.Sims[i]
		if sim.Kind != KindDynamic || sim.InvMass == 0 {
			continue
		}
		st, r := &s.Bodies[i], &s.start[i]
		m := 1 / sim.InvMass
		d := sim.X.P.Add(st.DP).Sub(c)
		dl += m * d.Cross(st.V.Sub(components.V(r.v[0], r.v[1])).Sub(dvc))
		inertia += m * d.LenSq()
		if sim.InvInertia > 0 {
			dl += (st.W - r.w) / sim.InvInertia
			inertia += 1 / sim.InvInertia
		}
	}
	dw := 0.0
	if inertia > 0 {
		dw = dl / inertia
	}
	for _, i := range rows {
		sim := &s.Sims[i]
		if sim.Kind != KindDynamic || sim.InvMass == 0 {
			continue
		}
		r := &s.start[i]
		d := sim.X.P.Add(s.Bodies[i].DP).Sub(c)
		v := dvc.Add(d.Perp().Scale(dw))
		r.v[0] += v.X
		r.v[1] += v.Y
		if sim.InvInertia > 0 {
			r.w += dw
		}
	}
}

// kineticOf returns the kinetic energy of the dynamic rows among rows with
// the velocities ref, in the frame moving at u.
func (s *Solver) kineticOf(rows []int32, u components.Vec2, ref []restRow) float64 {
	k := 0.0
	for _, i := range rows {
		sim := &s.Sims[i]
		if sim.Kind != KindDynamic || sim.InvMass == 0 {
			continue
		}
		r := &ref[i]
		dx, dy := r.v[0]-u.X, r.v[1]-u.Y
		k += (dx*dx + dy*dy) / sim.InvMass
		if sim.InvInertia > 0 {
			k += r.w * r.w / sim.InvInertia
		}
	}
	return 0.5 * k
}

// pushEnergy returns the kinetic energy that the push-out of c may give its
// two bodies this step: half the effective mass times the square of the
// push-out speed, for each point that overlaps at the start of the step.
// The step bound allows it, so that bodies created or driven into each
// other still come apart as fast as the push-out moves them
// (TestPhysicsDeepOverlapColumn); a collision at speed gives at most a few
// millimetres of overlap, and with them a fraction of a millijoule.
func (c *Contact) pushEnergy(p *stepParams) float64 {
	stiff := c.KindA != KindDynamic || c.KindB != KindDynamic
	e := 0.0
	for j := int32(0); j < c.Count; j++ {
		cp := &c.Points[j]
		e += cp.NormalMass * p.pushSpeedSq(stiff, cp.startGap(c.Normal))
	}
	return 0.5 * e
}

// pushSlop is the overlap that gets no push-out allowance: Box2D v3's
// linear slop (B2_LINEAR_SLOP, narrowphase.LinearSlop). The solver's own
// overlaps stay within it: a speculative contact at 6 m/s leaves about a
// millimetre, and with an allowance for it a box driven into a ball resting
// against a wall (e = 0) still gained 0.01 % in a step.
const pushSlop = 0.005

// pushSpeedSq returns the square of the push-out speed of solveContact for
// the separation sep (0 when sep >= 0), capped at MaxPushOut; stiff for a
// contact against a static or kinematic body.
func (p *stepParams) pushSpeedSq(stiff bool, sep float64) float64 {
	if !(sep < -pushSlop) {
		return 0
	}
	soft := &p.soft
	if stiff {
		soft = &p.stiff
	}
	v := p.pushBias(soft.BiasRate, sep)
	return v * v
}
