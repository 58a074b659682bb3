package solver

import (
	"math"

	"github.com/tumble2d/tumble/components"
)

// The bounce of an island adds no energy (where the bound below applies).
//
// Restitution gives each contact that pushed a normal velocity of e times
// its approach at the start of the step (applyRestitution). One contact
// alone never gains from that with e <= 1, but a body bounced by two at once
// can: the first bounce changes the velocity the second reverses. Three
// frictionless bodies with e = 1 in zero gravity, one of them a light box
// spinning at 54 rad/s between the other two, went from 30.6 to 36.4 J in
// one step, and random elastic piles of twelve bodies ended with up to 6 %
// more energy than they started with.
//
// So the bounce of an island is held to what it had before the step. With
// K0 the kinetic energy of its bodies at the start of the step, W the work
// of gravity and the applied forces and torques over the step (F.dp + t
// dtheta), Kb the kinetic energy before the restitution pass and Ka after
// it, the pass may end at no more than max(Kb, K0 + W). Free flight under
// symplectic Euler ends below K0 + W (by g^2 h^2 / 2 per substep and unit
// mass), damping and the speed caps only take energy away, and contacts
// with e <= 1 between dynamic and static bodies do no work, so only a
// bounce that creates energy is touched. It is then scaled back: every body
// of the island takes v_b + a (v_a - v_b), with the largest a in [0, 1]
// that meets the bound (kinetic energy is quadratic in a).
//
// A moving kinematic body does work on what it pushes, which the bound does
// not count. When every static and kinematic body an island touches moves
// at the same velocity u without turning (static bodies at 0), the bound
// holds in the frame that moves with them, where they all stand still:
// every velocity is taken relative to u, and the work along dp - u dt (the
// frame is inertial, and the contacts see only relative velocities).
// Islands that touch bodies moving otherwise (a turning paddle, two
// platforms apart, a moving platform and a static wall) are left alone. Left
// alone, the three bodies above with a floor creeping at 1 mm/s under the
// ball gained 10 % in one step (TestPhysicsElasticTrioGainsNoEnergy).
//
// Box2D v3 applies restitution the same way, contact by contact, without
// this bound.

// energyTol is the relative excess of the bound that a bounce may keep:
// rounding alone should not rescale an exact elastic bounce.
const energyTol = 1e-9

// restRow is a body's velocity before the restitution pass.
type restRow struct {
	v [2]float64
	w float64
}

// largeIsland is a coloured island: its bodies largeBodies[start:end], the
// island number, its chunks (boundlarge.go), and its energies for the
// bounds.
type largeIsland struct {
	start, end int32
	island     int32
	rowChunks  [2]int32        // its chunks of rows, rowChunks[0]:rowChunks[1] of Solver.rowChunks
	linkChunks [2]int32        // its chunks of links, likewise of Solver.linkChunks
	skip       bool            // its static and kinematic neighbours share no frame (islandFrame)
	anchored   bool            // it touches a static or kinematic body
	limited    bool            // the step bound scales it back this step
	frame      components.Vec2 // the velocity they share, or 0
	k0, kb, w  float64         // kinetic energy at the start, before the bounce; work
	a          float64         // the step bound's factor (stepFactor)
}

// kinetic returns the kinetic energy of the dynamic rows among rows in the
// frame moving at u.
func (s *Solver) kinetic(rows []int32, u components.Vec2) float64 {
	k := 0.0
	for _, i := range rows {
		sim := &s.Sims[i]
		if sim.Kind != KindDynamic || sim.InvMass == 0 {
			continue
		}
		st := &s.Bodies[i]
		k += st.V.Sub(u).LenSq() / sim.InvMass
		if sim.InvInertia > 0 {
			k += st.W * st.W / sim.InvInertia
		}
	}
	return 0.5 * k
}

// stepSums returns, in one pass over the dynamic rows among rows, in the
// frame moving at u: their kinetic energy k; the work w done on them over
// the step by gravity, their forces and their torques; and the sums A and
// B of blendSums from the velocities at the start of the step (s.start).
func (s *Solver) stepSums(rows []int32, u components.Vec2) (k, w, A, B float64) {
	for _, i := range rows {
		sim := &s.Sims[i]
		if sim.Kind != KindDynamic || sim.InvMass == 0 {
			continue
		}
		st, r := &s.Bodies[i], &s.start[i]
		m := 1 / sim.InvMass
		k += st.V.Sub(u).LenSq() * m
		w += sim.FreeAccel(s.p.gravity).Dot(st.DP.MulAdd(-s.p.dt, u)) * m
		var I float64
		if sim.InvInertia > 0 {
			I = 1 / sim.InvInertia
			k += st.W * st.W * I
		}
		A, B = blendRow(A, B, st, r, u, m, I)
		if sim.Torque != 0 {
			w += sim.Torque * sim.Rotation(st).Angle()
		}
	}
	return 0.5 * k, w, A, B
}

// keepRest keeps the velocities of rows before the restitution pass, for
// limitRest.
func (s *Solver) keepRest(rows []int32) { s.keepVelocities(rows, s.rest) }

// keepVelocities copies the velocities of rows into dst, row by row.
func (s *Solver) keepVelocities(rows []int32, dst []restRow) {
	for _, i := range rows {
		st := &s.Bodies[i]
		dst[i] = restRow{v: [2]float64{st.V.X, st.V.Y}, w: st.W}
	}
}

// limitRest scales back the restitution pass over rows so that their kinetic
// energy in the frame moving at u ends at most at max(kb, k0 + w) (see the
// top of this file).
func (s *Solver) limitRest(rows []int32, u components.Vec2, k0, kb, w float64) {
	bound := max(kb, k0+w)
	if ka := s.kinetic(rows, u); ka > bound*(1+energyTol) {
		s.blendBack(rows, u, s.rest, kb, bound)
	}
}

// blendBack moves every dynamic row i among rows to ref[i] + a (v - ref[i]):
// with the largest a in [0, 1] at which the kinetic energy in the frame
// moving at u is at most bound, or with the a of least energy when even
// a = 0, whose energy is kRef, exceeds it.
func (s *Solver) blendBack(rows []int32, u components.Vec2, ref []restRow, kRef, bound float64) {
	A, B := s.blendSums(rows, u, ref)
	s.blendApply(rows, ref, blendFactor(A, B, kRef, bound))
}

// blendSums returns the coefficients of K(a) = kRef + a B + a^2 A / 2 for
// the rows among rows blended from ref by a (see blendBack).
func (s *Solver) blendSums(rows []int32, u components.Vec2, ref []restRow) (A, B float64) {
	for _, i := range rows {
		sim := &s.Sims[i]
		if sim.Kind != KindDynamic || sim.InvMass == 0 {
			continue
		}
		var I float64
		if sim.InvInertia > 0 {
			I = 1 / sim.InvInertia
		}
		A, B = blendRow(A, B, &s.Bodies[i], &ref[i], u, 1/sim.InvMass, I)
	}
	return A, B
}

// blendRow returns A and B with the terms of one body of mass m and
// inertia I (0: it does not turn) whose velocity st moves from r.
func blendRow(A, B float64, st *BodyState, r *restRow, u components.Vec2, m, I float64) (float64, float64) {
	dx, dy := st.V.X-r.v[0], st.V.Y-r.v[1]
	A += m * (dx*dx + dy*dy)
	B += m * ((r.v[0]-u.X)*dx + (r.v[1]-u.Y)*dy)
	if I > 0 {
		dw := st.W - r.w
		A += I * dw * dw
		B += I * r.w * dw
	}
	return A, B
}

// blendFactor returns the a of blendBack from the sums of blendSums.
func blendFactor(A, B, kRef, bound float64) float64 {
	A *= 0.5
	if disc := B*B + 4*A*(bound-kRef); disc > 0 && A > 0 {
		return min(1, max(0, (-B+math.Sqrt(disc))/(2*A)))
	} else if A > 0 {
		return min(1, max(0, -B/(2*A)))
	}
	return 1
}

// blendApply moves the dynamic rows among rows to ref + a (v - ref).
func (s *Solver) blendApply(rows []int32, ref []restRow, a float64) {
	for _, i := range rows {
		if s.Sims[i].Kind != KindDynamic {
			continue
		}
		st, r := &s.Bodies[i], &ref[i]
		st.V.X = r.v[0] + a*(st.V.X-r.v[0])
		st.V.Y = r.v[1] + a*(st.V.Y-r.v[1])
		st.W = r.w + a*(st.W-r.w)
	}
}

// islandFrame returns the velocity that the static and kinematic sides of
// the given links share (0 when there are none), whether there is any such
// side (anchored), and ok false when they do not share one: two of them
// move apart, one turns, or a kinematic body moves where a static one does
// not. An island with no such side is free: its contacts keep its momentum
// and angular momentum.
func (s *Solver) islandFrame(links []int32) (u components.Vec2, anchored, ok bool) {
	for _, l := range links {
		lk := &s.Links[l]
		if u, anchored, ok = s.frameOf(lk.A, lk.KindA, u, anchored); !ok {
			return u, anchored, false
		}
		if u, anchored, ok = s.frameOf(lk.B, lk.KindB, u, anchored); !ok {
			return u, anchored, false
		}
	}
	return u, anchored, true
}

// frameOf folds the side (row i of kind k) into the frame u shared by the
// static and kinematic sides seen so far: a dynamic side leaves it as it
// is, a static side moves at 0, a kinematic side at its velocity. ok is
// false when the side turns or moves otherwise.
func (s *Solver) frameOf(i int32, k Kind, u components.Vec2, seen bool) (components.Vec2, bool, bool) {
	var v components.Vec2
	switch k {
	case KindDynamic:
		return u, seen, true
	case KindKinematic:
		st := &s.Bodies[i]
		if st.W != 0 {
			return u, seen, false
		}
		v = st.V
	}
	if seen && v != u {
		return u, seen, false
	}
	return v, true, true
}

// elastic reports whether a contact among cs has restitution.
func elastic(cs []Contact) bool {
	for i := range cs {
		if cs[i].Restitution > 0 {
			return true
		}
	}
	return false
}
