package solver

import "math"

// The bounce of an island never adds energy.
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
// that meets the bound (kinetic energy is quadratic in a). Islands that
// touch a kinematic body are left alone: a moving platform does work the
// bound does not count.
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
	kinematic  bool    // a contact of the island touches a kinematic body
	k0, kb, w  float64 // kinetic energy at the start, before the bounce; work
}

// kinetic returns the kinetic energy of the dynamic rows among rows.
func (s *Solver) kinetic(rows []int32) float64 {
	k := 0.0
	for _, i := range rows {
		sim := &s.Sims[i]
		if sim.Kind != KindDynamic || sim.InvMass == 0 {
			continue
		}
		st := &s.Bodies[i]
		k += st.V.LenSq() / sim.InvMass
		if sim.InvInertia > 0 {
			k += st.W * st.W / sim.InvInertia
		}
	}
	return 0.5 * k
}

// work returns the work done on the dynamic rows among rows over the step by
// gravity, their forces and their torques.
func (s *Solver) work(rows []int32) float64 {
	w := 0.0
	for _, i := range rows {
		sim := &s.Sims[i]
		if sim.Kind != KindDynamic || sim.InvMass == 0 {
			continue
		}
		st := &s.Bodies[i]
		w += sim.FreeAccel(s.p.gravity).Dot(st.DP) / sim.InvMass
		if sim.Torque != 0 {
			w += sim.Torque * sim.Rotation(st).Angle()
		}
	}
	return w
}

// snapRest keeps the velocities of rows before the restitution pass and
// returns their kinetic energy and the work of the step.
func (s *Solver) snapRest(rows []int32) (kb, w float64) {
	for _, i := range rows {
		st := &s.Bodies[i]
		s.rest[i] = restRow{v: [2]float64{st.V.X, st.V.Y}, w: st.W}
	}
	return s.kinetic(rows), s.work(rows)
}

// limitRest scales back the restitution pass over rows so that their kinetic
// energy ends at most at max(kb, k0 + w) (see the top of this file).
func (s *Solver) limitRest(rows []int32, k0, kb, w float64) {
	bound := max(kb, k0+w)
	ka := s.kinetic(rows)
	if !(ka > bound*(1+energyTol)) {
		return
	}
	// K(a) = kb + a B + a^2 A with the changes d = v_a - v_b.
	var A, B float64
	for _, i := range rows {
		sim := &s.Sims[i]
		if sim.Kind != KindDynamic || sim.InvMass == 0 {
			continue
		}
		st, r := &s.Bodies[i], &s.rest[i]
		m := 1 / sim.InvMass
		dx, dy := st.V.X-r.v[0], st.V.Y-r.v[1]
		A += m * (dx*dx + dy*dy)
		B += m * (r.v[0]*dx + r.v[1]*dy)
		if sim.InvInertia > 0 {
			I := 1 / sim.InvInertia
			dw := st.W - r.w
			A += I * dw * dw
			B += I * r.w * dw
		}
	}
	A *= 0.5
	// A > 0 here: with no change the energy would be kb <= bound.
	disc := B*B + 4*A*(bound-kb)
	a := 0.0
	if disc > 0 && A > 0 {
		a = min(1, max(0, (-B+math.Sqrt(disc))/(2*A)))
	}
	for _, i := range rows {
		if s.Sims[i].Kind != KindDynamic {
			continue
		}
		st, r := &s.Bodies[i], &s.rest[i]
		st.V.X = r.v[0] + a*(st.V.X-r.v[0])
		st.V.Y = r.v[1] + a*(st.V.Y-r.v[1])
		st.W = r.w + a*(st.W-r.w)
	}
}

// touchesKinematic reports whether a contact among cs has a kinematic side.
func touchesKinematic(cs []Contact) bool {
	for i := range cs {
		if cs[i].KindA == KindKinematic || cs[i].KindB == KindKinematic {
			return true
		}
	}
	return false
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

// boundLarge runs one part of the bound for the large island li: at the
// start of the step (modeRestStart), before the restitution pass
// (modeRestSnap) or after it (modeRestLimit).
func (s *Solver) boundLarge(li *largeIsland, mode int) {
	rows := s.largeBodies[li.start:li.end]
	switch mode {
	case modeRestStart:
		li.kinematic = false
		for _, l := range s.Islands.Contacts(int(li.island)) {
			if s.Links[l].KindA == KindKinematic || s.Links[l].KindB == KindKinematic {
				li.kinematic = true
				break
			}
		}
		if !li.kinematic {
			li.k0 = s.kinetic(rows)
		}
	case modeRestSnap:
		if !li.kinematic {
			li.kb, li.w = s.snapRest(rows)
		}
	case modeRestLimit:
		if !li.kinematic {
			s.limitRest(rows, li.k0, li.kb, li.w)
		}
	}
}
