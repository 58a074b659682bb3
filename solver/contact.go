package solver

import (
	"math"

	"github.com/tumble2d/tumble/components"
)

// ContactPoint is one point of a [Contact] constraint.
type ContactPoint struct {
	// RA and RB are the anchors: each body's point of the contact relative
	// to its centre, in world axes at the start of the step. Usually both
	// are the one manifold point; an aimed circle contact has a point on
	// each circle (narrowphase.AimCircles). They stay fixed over the
	// substeps (the Jacobian is not re-linearised).
	RA, RB components.Vec2
	// BaseSeparation is the separation at the start of the step minus
	// dot(RB - RA, n), so that the current separation is
	// BaseSeparation + dot((DPB + DQB RB) - (DPA + DQA RA), n). A round
	// body's DQ stays the identity (see BodySim.Turn).
	BaseSeparation float64
	NormalMass     float64 // 1 / (effective mass along the normal)
	TangentMass    float64 // 1 / (effective mass along the tangent)
	NormalImpulse  float64 // accumulated, N s; warm-started from the cache
	TangentImpulse float64 // accumulated, N s; warm-started from the cache
	// MaxNormalImpulse is the largest normal impulse applied in one substep:
	// restitution applies only to points that really pushed.
	MaxNormalImpulse float64
	// RelativeVelocity is the normal relative velocity before the step, or
	// at the gap's closing once [Contact.AimRestitution] has run: the
	// approach that restitution reverses.
	RelativeVelocity float64
}

// Contact is the constraint of one touching manifold between bodies A and B.
// A static side has index -1 and kind [KindStatic].
//
// It is 256 bytes, four cache lines: the coloured passes stream every
// contact twelve times a step, and a giant pile's contacts outgrow the
// caches, so every byte counts. What can be derived is not stored: the
// softness follows from the kinds (contacts against static or kinematic
// bodies are stiffer) and the island (see [Params.HeavyMassRatio]), and the feature ids stay with the manifold.
type Contact struct {
	A, B         int32
	KindA, KindB Kind
	// RoundA and RoundB mark a kinematic side that is a circle: turning it
	// moves no point of its outline, so its anchor does not turn within
	// the step (as a round dynamic body's DQ stays the identity, see
	// BodySim.Turn). Turned, a ball resting on a kinematic wheel of radius
	// 1 m spinning at 10 rad/s sank 4 mm into it, and 17 mm at 40 rad/s.
	RoundA, RoundB bool
	Count          int32 // points in use, 0..2
	Normal         components.Vec2
	Friction       float64
	Restitution    float64
	InvMassA       float64
	InvIA          float64
	InvMassB       float64
	InvIB          float64
	Points         [2]ContactPoint
}

// Prepare fills the anchors and effective masses of c from the body rows and
// its manifold points (already in c.Points[i].RA as world points, see
// [Contact.SetPoint]), and measures the relative normal velocity for
// restitution. The anchors are the manifold point less centerA and
// centerB: the body centres at the start of the step, or, for a body whose
// point of the contact is not the manifold point, its centre shifted by the
// difference.
func (c *Contact) Prepare(bodies []BodyState, centerA, centerB components.Vec2) {
	vA, wA := sideVelocity(bodies, c.A, c.KindA)
	vB, wB := sideVelocity(bodies, c.B, c.KindB)
	n := c.Normal
	t := n.RightPerp()
	mA, iA, mB, iB := c.InvMassA, c.InvIA, c.InvMassB, c.InvIB
	for j := int32(0); j < c.Count; j++ {
		cp := &c.Points[j]
		p := cp.RA // world point, stored there by SetPoint
		rA, rB := p.Sub(centerA), p.Sub(centerB)
		cp.RA, cp.RB = rA, rB
		cp.BaseSeparation -= rB.Sub(rA).Dot(n)
		rnA, rnB := rA.Cross(n), rB.Cross(n)
		if k := mA + mB + iA*rnA*rnA + iB*rnB*rnB; k > 0 {
			cp.NormalMass = 1 / k
		}
		rtA, rtB := rA.Cross(t), rB.Cross(t)
		if k := mA + mB + iA*rtA*rtA + iB*rtB*rtB; k > 0 {
			cp.TangentMass = 1 / k
		}
		cp.RelativeVelocity = normalVelocity(n, cp, vA, wA, vB, wB)
		cp.MaxNormalImpulse = 0
	}
}

// AimRestitution sets the approach velocity that restitution reverses
// (ContactPoint.RelativeVelocity) to the normal velocity at which each
// point's gap closes during the step, instead of the one at its start. Call
// it after [Contact.Prepare]; only contacts with restitution need it.
//
// accel is the acceleration of B relative to A that the step applies
// without contacts (gravity and applied forces), and dt the step. A gap s0
// closing at normal velocity vn under the constant normal acceleration a
// closes at the speed v with v^2 = vn^2 - 2 a s0 (energy along the
// normal). A ball dropped from 2 m meets the ground up to one step of free
// fall after the step starts: taken at the start, as Box2D v3 does, its
// rebound reached 94 % of e^2 of its height; taken at the impact, 98 %.
// The speed stays between those at the start and at the end of the step,
// since the gap closes within it. Points already touching keep vn, and so
// do points approaching slower than threshold (the restitution threshold,
// >= 0) at the start. A body that other contacts hold does not accelerate freely:
// on falling_bricks, aiming those points too turned slow rocking contacts
// into bounces, and the bricks took a median 262 steps to sleep after a
// turn, against 230 with Box2D's rule and 227 with this one.
func (c *Contact) AimRestitution(accel components.Vec2, dt, threshold float64) {
	n := c.Normal
	aN := accel.Dot(n)
	for j := int32(0); j < c.Count; j++ {
		cp := &c.Points[j]
		vn := cp.RelativeVelocity
		s0 := cp.startGap(n)
		if !(s0 > 0) || vn > -threshold {
			continue
		}
		// vn <= -threshold <= 0 here, so disc <= 0 is the one case left in
		// which the gap does not close: an acceleration apart stops it first.
		disc := vn*vn - 2*aN*s0
		if disc <= 0 {
			continue
		}
		end := vn + aN*dt
		cp.RelativeVelocity = min(max(-math.Sqrt(disc), min(vn, end)), max(vn, end))
	}
}

// startGap returns the separation of cp along the normal n at the start of
// the step.
func (cp *ContactPoint) startGap(n components.Vec2) float64 {
	return cp.BaseSeparation + cp.RB.Sub(cp.RA).Dot(n)
}

// SetPoint stores manifold point j before [Contact.Prepare]: its world
// position, its separation and the impulses to warm start.
//
// It sets every field one by one: a composite literal was built in a
// temporary and copied, and the copy's 16-byte loads of the temporary's
// 8-byte stores stalled on store forwarding (that line had a quarter of
// the preparation's profile samples on large_pyramid).
func (c *Contact) SetPoint(j int, world components.Vec2, separation float64, normalImpulse, tangentImpulse float64) {
	p := &c.Points[j]
	p.RA, p.RB = world, components.Vec2{}
	p.BaseSeparation = separation
	p.NormalMass, p.TangentMass = 0, 0
	p.NormalImpulse, p.TangentImpulse = normalImpulse, tangentImpulse
	p.MaxNormalImpulse, p.RelativeVelocity = 0, 0
}

// normalVelocity is the velocity of B relative to A at point cp, along the
// normal n, for sides moving at (vA, wA) and (vB, wB).
func normalVelocity(n components.Vec2, cp *ContactPoint, vA components.Vec2, wA float64, vB components.Vec2, wB float64) float64 {
	dv := vB.Add(components.CrossSV(wB, cp.RB)).Sub(vA.Add(components.CrossSV(wA, cp.RA)))
	return dv.Dot(n)
}

func sideVelocity(bodies []BodyState, i int32, k Kind) (components.Vec2, float64) {
	if k == KindStatic {
		return components.Vec2{}, 0
	}
	return bodies[i].V, bodies[i].W
}

func warmStart(c *Contact, bodies []BodyState) {
	n := c.Normal
	t := n.RightPerp()
	var vA, vB components.Vec2
	var wA, wB float64
	if c.KindA == KindDynamic {
		vA, wA = bodies[c.A].V, bodies[c.A].W
	}
	if c.KindB == KindDynamic {
		vB, wB = bodies[c.B].V, bodies[c.B].W
	}
	for j := int32(0); j < c.Count; j++ {
		cp := &c.Points[j]
		P := n.Scale(cp.NormalImpulse).MulAdd(cp.TangentImpulse, t)
		vA = vA.MulAdd(-c.InvMassA, P)
		wA -= c.InvIA * cp.RA.Cross(P)
		vB = vB.MulAdd(c.InvMassB, P)
		wB += c.InvIB * cp.RB.Cross(P)
	}
	if c.KindA == KindDynamic {
		bodies[c.A].V, bodies[c.A].W = vA, wA
	}
	if c.KindB == KindDynamic {
		bodies[c.B].V, bodies[c.B].W = vB, wB
	}
}

// solveContact runs one sequential-impulse pass over the points of c: the
// non-penetration rows first, then friction with the fresh normal impulses.
// elapsed is the time since the start of the step (for kinematic poses);
// useBias selects the soft push-out (solve) or none (relax).
//
// flip reverses the order of the two points. Sequential impulses favour the
// point solved first: with one iteration per substep, a symmetric stack
// solved always point 0 first leans by a few millimetres per box as it
// settles (2.2 cm at the top of 20 boxes). Alternating the order by substep
// cancels that bias, but the solve and the relax of one substep then took
// the points in the same order, and a thin box standing on end (0.1 x 1 m,
// friction 0.6) rocked by a milliradian for good, too fast to sleep. The
// relax takes them in the other order from the solve: the stack stays
// within 0.1 mm and the box sleeps after the 0.5 s rest, like a square one.
//
// The body of this function is written on scalars: it is the innermost loop
// of the engine, and the Vec2 helpers left struct temporaries the compiler
// did not eliminate.
func solveContact(c *Contact, bodies []BodyState, p *stepParams, elapsed float64, useBias, flip bool) {
	var vAx, vAy, wA, vBx, vBy, wB float64
	var dpx, dpy float64 // DP_B - DP_A
	qAc, qAs, qBc, qBs := 1.0, 0.0, 1.0, 0.0
	var ba, bb *BodyState
	switch c.KindA {
	case KindDynamic:
		ba = &bodies[c.A]
		vAx, vAy, wA = ba.V.X, ba.V.Y, ba.W
		dpx, dpy = -ba.DP.X, -ba.DP.Y
		qAc, qAs = ba.DQ.C, ba.DQ.S
	case KindKinematic:
		k := &bodies[c.A]
		vAx, vAy, wA = k.V.X, k.V.Y, k.W
		dpx, dpy = -elapsed*vAx, -elapsed*vAy
		if !c.RoundA {
			q := components.Rot{C: 1, S: elapsed * wA}.Normalize()
			qAc, qAs = q.C, q.S
		}
	}
	switch c.KindB {
	case KindDynamic:
		bb = &bodies[c.B]
		vBx, vBy, wB = bb.V.X, bb.V.Y, bb.W
		dpx, dpy = dpx+bb.DP.X, dpy+bb.DP.Y
		qBc, qBs = bb.DQ.C, bb.DQ.S
	case KindKinematic:
		k := &bodies[c.B]
		vBx, vBy, wB = k.V.X, k.V.Y, k.W
		dpx, dpy = dpx+elapsed*vBx, dpy+elapsed*vBy
		if !c.RoundB {
			q := components.Rot{C: 1, S: elapsed * wB}.Normalize()
			qBc, qBs = q.C, q.S
		}
	}
	mA, iA, mB, iB := c.InvMassA, c.InvIA, c.InvMassB, c.InvIB
	nx, ny := c.Normal.X, c.Normal.Y
	soft := &p.soft
	if c.KindA != KindDynamic || c.KindB != KindDynamic {
		soft = &p.stiff
	}
	biasRate, softMass, softImpulse := soft.BiasRate, soft.MassScale, soft.ImpulseScale
	n := int(c.Count)
	first, step := 0, 1
	if flip && n == 2 {
		first, step = 1, -1
	}
	for k, j := 0, first; k < n; k, j = k+1, j+step {
		cp := &c.Points[j]
		rAx, rAy, rBx, rBy := cp.RA.X, cp.RA.Y, cp.RB.X, cp.RB.Y
		// Current separation from the deltas, with rotated anchors: exact
		// for rigid motion of the two anchor points (Box2D v3
		// b2SolveContact).
		dx := dpx + (qBc*rBx - qBs*rBy) - (qAc*rAx - qAs*rAy)
		dy := dpy + (qBs*rBx + qBc*rBy) - (qAs*rAx + qAc*rAy)
		sep := dx*nx + dy*ny + cp.BaseSeparation
		bias, massScale, impulseScale := 0.0, 1.0, 0.0
		if sep > 0 {
			// Speculative: allow closing the gap within this substep, no more.
			bias = sep * p.invH
		} else if useBias {
			bias = p.pushBias(biasRate, sep)
			massScale, impulseScale = softMass, softImpulse
		}
		dvx := (vBx - wB*rBy) - (vAx - wA*rAy)
		dvy := (vBy + wB*rBx) - (vAy + wA*rAx)
		vn := dvx*nx + dvy*ny
		impulse := -cp.NormalMass*massScale*(vn+bias) - impulseScale*cp.NormalImpulse
		newImpulse := maxf(cp.NormalImpulse+impulse, 0)
		impulse = newImpulse - cp.NormalImpulse
		cp.NormalImpulse = newImpulse
		cp.MaxNormalImpulse = maxf(cp.MaxNormalImpulse, impulse)
		px, py := impulse*nx, impulse*ny
		vAx, vAy = vAx-mA*px, vAy-mA*py
		wA -= iA * (rAx*py - rAy*px)
		vBx, vBy = vBx+mB*px, vBy+mB*py
		wB += iB * (rBx*py - rBy*px)
	}
	// Tangent t = RightPerp(n) = (ny, -nx).
	tx, ty := ny, -nx
	friction := c.Friction
	for k, j := 0, first; k < n; k, j = k+1, j+step {
		cp := &c.Points[j]
		rAx, rAy, rBx, rBy := cp.RA.X, cp.RA.Y, cp.RB.X, cp.RB.Y
		dvx := (vBx - wB*rBy) - (vAx - wA*rAy)
		dvy := (vBy + wB*rBx) - (vAy + wA*rAx)
		vt := dvx*tx + dvy*ty
		impulse := -cp.TangentMass * vt
		maxF := friction * cp.NormalImpulse
		newImpulse := maxf(-maxF, minf(cp.TangentImpulse+impulse, maxF))
		impulse = newImpulse - cp.TangentImpulse
		cp.TangentImpulse = newImpulse
		px, py := impulse*tx, impulse*ty
		vAx, vAy = vAx-mA*px, vAy-mA*py
		wA -= iA * (rAx*py - rAy*px)
		vBx, vBy = vBx+mB*px, vBy+mB*py
		wB += iB * (rBx*py - rBy*px)
	}
	if ba != nil {
		ba.V.X, ba.V.Y, ba.W = vAx, vAy, wA
	}
	if bb != nil {
		bb.V.X, bb.V.Y, bb.W = vBx, vBy, wB
	}
}

// pushBias returns the bias of solveContact for an overlap sep < 0 at the
// spring's rate: the push-out, slower past deepOverlap, capped at maxPushOut.
// The step bound's push-out allowance (Contact.pushEnergy) uses it too.
func (p *stepParams) pushBias(rate, sep float64) float64 {
	return maxf(rate*(sep-p.deepFrac*minf(sep+p.deepOverlap, 0)), -p.maxPushOut)
}

// maxf and minf are plain comparisons: math.Max and math.Min handle NaN and
// signed zeros in an assembly routine that the compiler does not inline, and
// every call spills the float registers. Inputs here are finite.
func maxf(a, b float64) float64 {
	if a > b {
		return a
	}
	return b
}

func minf(a, b float64) float64 {
	if a < b {
		return a
	}
	return b
}
