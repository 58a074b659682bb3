package solver

import (
	"math"
	"sync/atomic"

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
// island number, and its energies for the bound.
type largeIsland struct {
	start, end int32
	island     int32
	skip       bool            // its static and kinematic neighbours share no frame (islandFrame)
	anchored   bool            // it touches a static or kinematic body
	frame      components.Vec2 // the velocity they share, or 0
	k0, kb, w  float64         // kinetic energy at the start, before the bounce; work
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

// kineticWork returns kinetic(rows, u) and the work done on the dynamic
// rows among rows over the step by gravity, their forces and their torques,
// in the frame moving at u, in one pass.
func (s *Solver) kineticWork(rows []int32, u components.Vec2) (k, w float64) {
	for _, i := range rows {
		sim := &s.Sims[i]
		if sim.Kind != KindDynamic || sim.InvMass == 0 {
			continue
		}
		st := &s.Bodies[i]
		k += st.V.Sub(u).LenSq() / sim.InvMass
		w += sim.FreeAccel(s.p.gravity).Dot(st.DP.MulAdd(-s.p.dt, u)) / sim.InvMass
		if sim.InvInertia > 0 {
			k += st.W * st.W / sim.InvInertia
		}
		if sim.Torque != 0 {
			w += sim.Torque * sim.Rotation(st).Angle()
		}
	}
	return 0.5 * k, w
}

// keepRest keeps the velocities of rows before the restitution pass, for
// limitRest.
func (s *Solver) keepRest(rows []int32) {
	for _, i := range rows {
		st := &s.Bodies[i]
		s.rest[i] = restRow{v: [2]float64{st.V.X, st.V.Y}, w: st.W}
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
	// K(a) = kRef + a B + a^2 A with the changes d = v - ref.
	var A, B float64
	for _, i := range rows {
		sim := &s.Sims[i]
		if sim.Kind != KindDynamic || sim.InvMass == 0 {
			continue
		}
		st, r := &s.Bodies[i], &ref[i]
		m := 1 / sim.InvMass
		dx, dy := st.V.X-r.v[0], st.V.Y-r.v[1]
		A += m * (dx*dx + dy*dy)
		B += m * ((r.v[0]-u.X)*dx + (r.v[1]-u.Y)*dy)
		if sim.InvInertia > 0 {
			I := 1 / sim.InvInertia
			dw := st.W - r.w
			A += I * dw * dw
			B += I * r.w * dw
		}
	}
	A *= 0.5
	a := 1.0
	if disc := B*B + 4*A*(bound-kRef); disc > 0 && A > 0 {
		a = min(1, max(0, (-B+math.Sqrt(disc))/(2*A)))
	} else if A > 0 {
		a = min(1, max(0, -B/(2*A)))
	}
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

// boundLarge runs one part of the bounds for the large island li: at the
// start of the step (modeBoundStart), after the substeps (modeBoundSubsteps:
// the bound of stepbound.go, and the velocities before the bounce when the
// large islands have restitution) or after the restitution pass
// (modeRestLimit).
func (s *Solver) boundLarge(li *largeIsland, mode int) {
	rows := s.largeBodies[li.start:li.end]
	switch mode {
	case modeBoundStart:
		var ok bool
		li.frame, li.anchored, ok = s.islandFrame(s.Islands.Contacts(int(li.island)))
		li.skip = !ok
		if !li.skip {
			li.k0 = s.keepStart(rows, li.frame)
		}
	case modeBoundSubsteps:
		if !li.skip {
			li.kb, li.w = s.kineticWork(rows, li.frame)
			if limit := li.k0 + max(li.w, 0); li.kb > limit*(1+energyTol) {
				if atomic.LoadUint32(&s.deepIsland[li.island]) != 0 {
					for _, l := range s.Islands.Contacts(int(li.island)) {
						limit += s.pushOf(l)
					}
				}
				li.kb = s.limitStep(rows, li.frame, li.anchored, limit, li.kb, li.k0)
			}
			if s.elasticLarge.Load() {
				s.keepRest(rows)
			}
		}
	case modeRestLimit:
		if !li.skip {
			s.limitRest(rows, li.frame, li.k0, li.kb, li.w)
		}
	}
}
