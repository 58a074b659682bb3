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
// An anchored island is slowed as a whole in its frame: every velocity
// relative to the frame, and every spin, is scaled by the same factor. A
// free island keeps its common translation and its rigid rotation about its
// centre of mass, and only the rest (the motion of its bodies relative to
// one another) is scaled. That rest has neither momentum nor angular
// momentum (it is orthogonal to both modes in the metric of the masses), so
// the scaling keeps both, as contacts must in a free island.

// limitStep scales back the velocities of the dynamic rows among rows, whose
// kinetic energy in the frame moving at u is k, so that it is at most bound
// (anchored islands) or as close to it as the island's translation and
// rigid rotation allow (free islands, u = 0). It returns the kinetic energy
// at the end.
func (s *Solver) limitStep(rows []int32, u components.Vec2, anchored bool, bound, k float64) float64 {
	if !(k > bound*(1+energyTol)) || !(bound < math.MaxFloat64) {
		return k
	}
	if anchored {
		a := math.Sqrt(max(bound, 0) / k)
		for _, i := range rows {
			sim := &s.Sims[i]
			if sim.Kind != KindDynamic || sim.InvMass == 0 {
				continue
			}
			st := &s.Bodies[i]
			st.V = u.Add(st.V.Sub(u).Scale(a))
			st.W *= a
		}
		return s.kinetic(rows, u)
	}
	// The centre of mass and its velocity.
	var c, p components.Vec2
	var mass float64
	for _, i := range rows {
		sim := &s.Sims[i]
		if sim.Kind != KindDynamic || sim.InvMass == 0 {
			continue
		}
		mi := 1 / sim.InvMass
		mass += mi
		c = c.MulAdd(mi, sim.X.P.Add(s.Bodies[i].DP))
		p = p.MulAdd(mi, s.Bodies[i].V)
	}
	c, vc := c.Scale(1/mass), p.Scale(1/mass)
	// The rigid rotation: angular momentum about c over the moment of inertia
	// about c (bodies with fixed rotation turn with it only by translating).
	var l, inertia float64
	for _, i := range rows {
		sim := &s.Sims[i]
		if sim.Kind != KindDynamic || sim.InvMass == 0 {
			continue
		}
		st := &s.Bodies[i]
		mi := 1 / sim.InvMass
		d := sim.X.P.Add(st.DP).Sub(c)
		l += mi * d.Cross(st.V.Sub(vc))
		inertia += mi * d.LenSq()
		if sim.InvInertia > 0 {
			l += st.W / sim.InvInertia
			inertia += 1 / sim.InvInertia
		}
	}
	omega := 0.0
	if inertia > 0 {
		omega = l / inertia
	}
	base := 0.5 * (mass*vc.LenSq() + inertia*omega*omega)
	// The rest, which the scaling takes.
	rest := 0.0
	for _, i := range rows {
		sim := &s.Sims[i]
		if sim.Kind != KindDynamic || sim.InvMass == 0 {
			continue
		}
		st := &s.Bodies[i]
		d := sim.X.P.Add(st.DP).Sub(c)
		rest += st.V.Sub(vc.Add(d.Perp().Scale(omega))).LenSq() / sim.InvMass
		if sim.InvInertia > 0 {
			dw := st.W - omega
			rest += dw * dw / sim.InvInertia
		}
	}
	rest *= 0.5
	if !(rest > 0) {
		return k
	}
	a := math.Sqrt(min(1, max(bound-base, 0)/rest))
	for _, i := range rows {
		sim := &s.Sims[i]
		if sim.Kind != KindDynamic || sim.InvMass == 0 {
			continue
		}
		st := &s.Bodies[i]
		d := sim.X.P.Add(st.DP).Sub(c)
		rigid := vc.Add(d.Perp().Scale(omega))
		st.V = rigid.Add(st.V.Sub(rigid).Scale(a))
		if sim.InvInertia > 0 {
			st.W = omega + a*(st.W-omega)
		}
	}
	return s.kinetic(rows, u)
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

// deep reports whether a point of c overlaps deeper than pushSlop at the
// start of the step: only then can it have push-out energy.
func (c *Contact) deep() bool {
	for j := int32(0); j < c.Count; j++ {
		if c.Points[j].startGap(c.Normal) < -pushSlop {
			return true
		}
	}
	return false
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
	v := min(-soft.BiasRate*(sep-p.deepFrac*min(sep+p.deepOverlap, 0)), p.maxPushOut)
	return v * v
}

// pushOf returns Contact.pushEnergy for the contact of link li, from its
// lane of a wide block or from Contacts.
func (s *Solver) pushOf(li int32) float64 {
	p := &s.p
	if s.heavyLink[li] {
		p = &s.pHeavy
	}
	k := s.Rank[li]
	w, l := s.lane(k)
	if w == nil {
		return s.Contacts[k].pushEnergy(p)
	}
	stiff := w.stiff[l] != 0
	e := 0.0
	for j := range w.pts {
		wp := &w.pts[j]
		// An empty second lane has zero anchors, separation and mass.
		sep := wp.baseSep[l] + (wp.rBx[l]-wp.rAx[l])*w.nx[l] + (wp.rBy[l]-wp.rAy[l])*w.ny[l]
		e += wp.normalMass[l] * p.pushSpeedSq(stiff, sep)
	}
	return 0.5 * e
}
