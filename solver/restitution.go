package solver

import (
	"math"

	"github.com/tumble2d/tumble/components"
)

// maxCondition bounds the condition number of a two-point contact's
// effective-mass matrix for the block restitution. Above it the two points
// are nearly one (a box landing on a corner of another, say) and the block
// solve would amplify rounding, so the points are taken one after the other
// (Box2D v2.4 b2_maxConditionNumber, the same value).
const maxCondition = 1000

// applyRestitution adds the bounce once after the substeps: points that
// approached faster than the threshold and really pushed get a normal
// velocity of -e times their approach velocity (Box2D v3
// b2ApplyRestitution).
//
// When both points of a manifold bounce together (bouncesTogether), they are
// solved together. Taken one after the other, as Box2D v3 does, the first
// point's impulse also lifts the second through the body's turn, so the
// second pushes less, and a box that lands flat leaves with a spin: a 1.5 x 0.5 m box dropped flat from 9 m
// at e = 0.5 flipped over. Solved together (the two-point linear
// complementarity problem of Box2D v2.4's block solver,
// b2ContactSolver::SolveVelocityConstraints), it bounces straight.
//
// Such an impact is solved together at e = 0 too, where Box2D v3 applies
// no restitution: the substeps' sequential passes leave the same spin when
// a box hits flat, and friction turns it into a slide. A 0.2 m box thrown
// flat at a wall at 10 m/s, in zero gravity with friction 0.6, tumbled off
// it; at 100 m/s it turned over. With targets of zero the block solve stops
// both points, and it never adds energy: with the accumulated impulses a
// before and x after, both >= 0, and the final normal velocities v >= 0 with
// x_i v_i = 0, the kinetic energy changes by -a.v - (x-a).K(x-a)/2 <= 0.
//
// total, when not nil, holds each point's impulse summed over the step's
// substeps. The block solve then redistributes the whole step's impulse,
// not only the last substep's (the accumulated impulse), so a point whose
// last impulse is zero because the body turned off it within the step can
// still be held: a frictionless box hitting a wall flat at 20 m/s kept a
// spin of 1.2 rad/s with the last substep's impulses. Small islands, solved
// by one worker with the scalar kernel, keep the sums; coloured contacts do
// not, and pass nil.
func applyRestitution(c *Contact, bodies []BodyState, p *stepParams, total *[2]float64) {
	block := c.Count == 2 && bouncesTogether(c, p)
	if c.Restitution == 0 && !block {
		return
	}
	vA, wA := sideVelocity(bodies, c.A, c.KindA)
	vB, wB := sideVelocity(bodies, c.B, c.KindB)
	if block {
		if _, ok := restituteBlock(c, &vA, &wA, &vB, &wB, total); ok {
			// The impulse of an impact is not the load the contact
			// carries after it. Warm-started into the next tick, it pushed
			// a box that had hit a wall flat back off it, spinning (1.2
			// rad/s after a frictionless hit at 20 m/s): the next tick
			// starts this contact cold instead.
			c.Points[0].NormalImpulse, c.Points[1].NormalImpulse = 0, 0
			storeSides(c, bodies, vA, wA, vB, wB)
			return
		}
	}
	if c.Restitution == 0 {
		return
	}
	mA, iA, mB, iB := c.InvMassA, c.InvIA, c.InvMassB, c.InvIB
	n := c.Normal
	for j := int32(0); j < c.Count; j++ {
		cp := &c.Points[j]
		if !bounces(cp, p) {
			continue
		}
		rA, rB := cp.RA, cp.RB
		vn := normalVelocity(n, cp, vA, wA, vB, wB)
		impulse := -cp.NormalMass * (vn + c.Restitution*cp.RelativeVelocity)
		newImpulse := maxf(cp.NormalImpulse+impulse, 0)
		impulse = newImpulse - cp.NormalImpulse
		cp.NormalImpulse = newImpulse
		cp.MaxNormalImpulse = maxf(cp.MaxNormalImpulse, impulse)
		P := n.Scale(impulse)
		vA = vA.MulAdd(-mA, P)
		wA -= iA * rA.Cross(P)
		vB = vB.MulAdd(mB, P)
		wB += iB * rB.Cross(P)
	}
	storeSides(c, bodies, vA, wA, vB, wB)
}

// impact reports whether c may need the restitution pass at the given
// restitution threshold: it has restitution, or two points that approach
// faster than the threshold (whether they push is known only after the
// substeps). The restitution pass skips colours and blocks without one.
func (c *Contact) impact(threshold float64) bool {
	return c.Restitution != 0 || (c.Count == 2 &&
		c.Points[0].RelativeVelocity <= -threshold && c.Points[1].RelativeVelocity <= -threshold)
}

// bouncesTogether reports whether both points of the two-point contact c
// take the bounce together (restituteBlock): both approached faster than the
// threshold, at least one pushed, and at the start of the step their gaps
// differed by no more than the faster approach covers in a substep.
//
// The solver resolves time in substeps, so two corners that meet the ground
// within one substep of each other hit together as far as it can tell, even
// when only one of them has pushed by the end of the step: which one has
// depends on where in the step the impact falls. A 1 m box tilted by 1 mrad,
// so that its corners were 1 mm apart, falling at 4.2 m/s with e = 1,
// bounced straight in 395 of 400 placements of the impact within the step,
// and left spinning at up to 5.7 rad/s in the other 5, where only its lower
// corner had pushed (at 10 mrad: in 57 of 400).
//
// Corners further apart bounce one after the other, as in Box2D v3, even
// when both have pushed. Taken together, the block gives both their full
// rebound and undoes the turn the first one started, but keeps the sideways
// speed that friction at that corner made of it: a 1 m box tilted 0.04 rad
// hitting at 4.4 m/s with e = 1 and friction 0.6 left with 15 % more kinetic
// energy than it came with (a review's probes). The gaps are the ones at the
// start of the step, before the first corner's push turned the box.
func bouncesTogether(c *Contact, p *stepParams) bool {
	p0, p1 := &c.Points[0], &c.Points[1]
	thr := -p.restitutionThreshold
	if p0.RelativeVelocity > thr || p1.RelativeVelocity > thr {
		return false
	}
	if p0.MaxNormalImpulse == 0 && p1.MaxNormalImpulse == 0 {
		return false
	}
	n := c.Normal
	return math.Abs(p0.startGap(n)-p1.startGap(n)) <= -min(p0.RelativeVelocity, p1.RelativeVelocity)*p.h
}

// bounces reports whether restitution acts on cp: it approached faster than
// the threshold and pushed in some substep.
func bounces(cp *ContactPoint, p *stepParams) bool {
	return cp.RelativeVelocity <= -p.restitutionThreshold && cp.MaxNormalImpulse != 0
}

// storeSides writes the velocities of the dynamic sides of c back.
func storeSides(c *Contact, bodies []BodyState, vA components.Vec2, wA float64, vB components.Vec2, wB float64) {
	if c.KindA == KindDynamic {
		bodies[c.A].V, bodies[c.A].W = vA, wA
	}
	if c.KindB == KindDynamic {
		bodies[c.B].V, bodies[c.B].W = vB, wB
	}
}

// restituteBlock solves both points of c for their bounce at once and
// returns the impulses x, or reports false, changing nothing, when the two
// points are too close to one for that (see maxCondition).
//
// With K the 2x2 effective-mass matrix of the normal impulses, a the
// accumulated impulses (or the step's totals, see applyRestitution), v the
// normal velocities now and t_i = -e u_i the
// targets (u_i the approach velocity), the velocities after accumulated
// impulses x are v + K (x - a). Restitution asks for
//
//	w = K x + b >= 0,  x >= 0,  x_i w_i = 0,  with b = v - t - K a:
//
// each point either reaches its target with a pushing impulse, or leaves
// faster than it with none. K is symmetric positive definite, so the
// problem has one solution, and it is among the four ways to choose which
// points push; they are tried in turn.
func restituteBlock(c *Contact, vA *components.Vec2, wA *float64, vB *components.Vec2, wB *float64, total *[2]float64) (x [2]float64, ok bool) {
	n := c.Normal
	mA, iA, mB, iB := c.InvMassA, c.InvIA, c.InvMassB, c.InvIB
	p1, p2 := &c.Points[0], &c.Points[1]
	rnA1, rnB1 := p1.RA.Cross(n), p1.RB.Cross(n)
	rnA2, rnB2 := p2.RA.Cross(n), p2.RB.Cross(n)
	k11 := mA + mB + iA*rnA1*rnA1 + iB*rnB1*rnB1
	k22 := mA + mB + iA*rnA2*rnA2 + iB*rnB2*rnB2
	k12 := mA + mB + iA*rnA1*rnA2 + iB*rnB1*rnB2
	det := k11*k22 - k12*k12
	if !(k11*k11 < maxCondition*det) {
		return x, false
	}
	a1, a2 := p1.NormalImpulse, p2.NormalImpulse
	if total != nil {
		a1, a2 = total[0], total[1]
	}
	e := c.Restitution
	b1 := normalVelocity(n, p1, *vA, *wA, *vB, *wB) + e*p1.RelativeVelocity - (k11*a1 + k12*a2)
	b2 := normalVelocity(n, p2, *vA, *wA, *vB, *wB) + e*p2.RelativeVelocity - (k12*a1 + k22*a2)
	var x1, x2 float64
	switch {
	case k12*b2-k22*b1 >= 0 && k12*b1-k11*b2 >= 0:
		// Both push: x = -K^-1 b (det > 0, so the signs are the numerators').
		x1, x2 = (k12*b2-k22*b1)/det, (k12*b1-k11*b2)/det
	case b1 <= 0 && k12*(-b1/k11)+b2 >= 0:
		// Only the first pushes; the second leaves at least as fast as asked.
		x1 = -b1 / k11
	case b2 <= 0 && k12*(-b2/k22)+b1 >= 0:
		x2 = -b2 / k22
	case b1 >= 0 && b2 >= 0:
		// Neither pushes: both already leave fast enough.
	default:
		// Unreachable for a positive definite K but for rounding: keep the
		// impulses as they are.
		return [2]float64{a1, a2}, true
	}
	d1, d2 := x1-a1, x2-a2
	p1.MaxNormalImpulse = maxf(p1.MaxNormalImpulse, d1)
	p2.MaxNormalImpulse = maxf(p2.MaxNormalImpulse, d2)
	P1, P2 := n.Scale(d1), n.Scale(d2)
	P := P1.Add(P2)
	*vA = vA.MulAdd(-mA, P)
	*wA -= iA * (p1.RA.Cross(P1) + p2.RA.Cross(P2))
	*vB = vB.MulAdd(mB, P)
	*wB += iB * (p1.RB.Cross(P1) + p2.RB.Cross(P2))
	return [2]float64{x1, x2}, true
}
