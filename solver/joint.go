package solver

import (
	"math"
	"math/bits"

	"github.com/tumble2d/tumble/components"
)

// Joint is one joint constraint of a step between body rows A and B: the
// caller fills the spec, the sides and the warm-start impulses, Solve
// prepares and solves it with the island of its dynamic side, and Impulse
// holds the last substep's impulses afterwards. The constraints are those
// of Box2D v3 (revolute_joint.c, distance_joint.c, weld_joint.c,
// prismatic_joint.c, wheel_joint.c, mouse_joint.c), solved in the same soft
// step as the contacts: the warm start, the biased solve and the relax of
// every substep take the joints before the contacts.
type Joint struct {
	components.JointSpec
	// A and B are body rows, or -1 for a side without a row: a static
	// body, or one that does not move this step, whose pose is XA or XB.
	A, B         int32
	KindA, KindB Kind
	XA, XB       components.Transform
	Impulse      components.JointImpulse

	// Prepared by Solve: the anchors relative to the centres and the
	// centres' offset (B - A) at the start of the step, and the inverse
	// masses (zero for a side that does not move under impulses).
	rA, rB, dc     components.Vec2
	axis           components.Vec2 // a prismatic or wheel joint's unit axis at the start
	angle0         float64         // the angle (relAngle) at the start of the step
	mA, mB, iA, iB float64
	spring         Softness
}

// jointSoftness is the softness with which the rigid joints take back a
// position error: the contact frequency (capped at a quarter of the
// substep rate), heavily damped. At twice it with damping ratio 2 (Box2D
// v3.0's joints), a 2 m pendulum on a revolute joint that struck its angle
// limit at 2.1 rad/s came back off it at 1.1 rad/s; at this setting, at
// 0.46. Like every soft constraint it gives under load in proportion to
// its effective mass (see docs/guide.md, "Joints").
func (p *Params) jointSoftness() Softness {
	h := p.Dt / float64(p.SubSteps)
	return MakeSoft(math.Min(p.ContactHertz, 0.25/h), jointDampingRatio, h)
}

const jointDampingRatio = 5

// hubJointSoftness is the softness of the rigid joints of an island with a
// hub (jointPasses, hubShare): half the frequency of jointSoftness,
// damping ratio 0.5. Sweeps alone did not hold every hub; softer joints
// did. A 10 kg Ferris wheel with 16, 24 or 32 seats of 50 kg spun itself
// up to 15-20 rad/s, its pins torn metres apart, at the full stiffness
// with eight sweeps; at this one its pins open 2.5-5.4 cm under the seats
// and it stays at rest. A 0.8 kg hub spinning with 24 spokes of 0.5 kg 2.2
// m out held (its energy went from 7.3 J to 1.4e5 J at damping ratio 1);
// 64 spokes still do not.
func (p *Params) hubJointSoftness() Softness {
	h := p.Dt / float64(p.SubSteps)
	return MakeSoft(0.5*math.Min(p.ContactHertz, 0.25/h), 0.5, h)
}

// prepareJoint computes what the substeps of j keep fixed.
func (s *Solver) prepareJoint(j *Joint, p *stepParams) {
	xa, xb := j.XA, j.XB
	j.mA, j.iA, j.mB, j.iB = 0, 0, 0, 0
	if j.A >= 0 {
		sim := &s.Sims[j.A]
		xa = sim.X
		if j.KindA == KindDynamic {
			j.mA, j.iA = sim.InvMass, sim.InvInertia
		}
	}
	if j.B >= 0 {
		sim := &s.Sims[j.B]
		xb = sim.X
		if j.KindB == KindDynamic {
			j.mB, j.iB = sim.InvMass, sim.InvInertia
		}
	}
	j.rA, j.rB = xa.R.Rotate(j.LocalAnchorA), xb.R.Rotate(j.LocalAnchorB)
	j.dc = xb.P.Sub(xa.P)
	j.angle0 = math.Remainder(xa.R.InvMul(xb.R).Angle()-j.ReferenceAngle, 2*math.Pi)
	j.clearUnused()
	j.spring = Softness{MassScale: 1}
	if (j.EnableSpring || j.Kind == components.JointMouse || j.Kind == components.JointMotor) && j.Hertz > 0 {
		j.spring = MakeSoft(j.Hertz, j.DampingRatio, p.h)
	}
	if j.Kind == components.JointPrismatic || j.Kind == components.JointWheel {
		// Scaled first, so that an axis of 1e-200 normalises.
		u := j.LocalAxisA
		u = u.Scale(1 / math.Max(math.Abs(u.X), math.Abs(u.Y)))
		u, _ = u.Normalize()
		j.axis = xa.R.Rotate(u)
	}
}

// clearUnused zeroes the impulses of the parts of j that are off: a game
// that turns a spring, motor or limit off between ticks (or a motor
// joint's cap to 0) frees the bodies at once, where the warm start would
// go on applying the part's last impulse for ever (Box2D's setters, such
// as b2RevoluteJoint_EnableSpring, clear it the same way).
func (j *Joint) clearUnused() {
	im := &j.Impulse
	spring := j.EnableSpring && j.Hertz > 0
	switch j.Kind {
	case components.JointRevolute, components.JointPrismatic, components.JointWheel:
		if !spring {
			im.Axial = 0
		}
	case components.JointDistance:
		if j.EnableSpring && j.Hertz == 0 {
			im.Axial = 0 // free between its limits
		}
	case components.JointMotor:
		if j.MaxForce == 0 {
			im.Linear = components.Vec2{}
		}
		if j.MaxMotorTorque == 0 {
			im.Angular = 0
		}
	}
	if !j.EnableMotor {
		im.Motor = 0
	}
	if !j.EnableLimit || j.Kind == components.JointDistance && !j.EnableSpring {
		im.Lower, im.Upper = 0, 0
	}
}

// jointBody is one side of a joint during a substep: its velocity, and its
// motion since the start of the step.
type jointBody struct {
	v  components.Vec2
	w  float64
	dp components.Vec2
	dq components.Rot
}

// side returns the state of row i of kind k at time elapsed into the step;
// a kinematic row moves at its constant velocity.
func (s *Solver) side(i int32, k Kind, elapsed float64) jointBody {
	switch {
	case i < 0:
	case k == KindDynamic:
		st := &s.Bodies[i]
		return jointBody{v: st.V, w: st.W, dp: st.DP, dq: s.Sims[i].Rotation(st)}
	case k == KindKinematic:
		st := &s.Bodies[i]
		return jointBody{v: st.V, w: st.W, dp: st.V.Scale(elapsed), dq: components.NewRot(elapsed * st.W)}
	}
	return jointBody{dq: components.Identity}
}

// put writes the velocity of a dynamic side back.
func (s *Solver) put(i int32, k Kind, b *jointBody) {
	if i >= 0 && k == KindDynamic {
		s.Bodies[i].V, s.Bodies[i].W = b.v, b.w
	}
}

// capRows holds the dynamic rows of an island with joints within the speed
// caps (capSpeeds) before their positions move, and at the end of the
// step. Contacts may push a body past the caps, as in Box2D; joints may
// not: a joint holding a light body to heavy ones far away can pass their
// momentum to it faster than the next substep takes it back, and random
// networks of 60 such joints ran to 1e75 m/s and stopped there, infinite
// (see docs/guide.md, "Joints"). Capped within the sweep instead, at every
// joint's write, a crane of 0.04 kg links dropped a 450 kg crate: the warm
// start gives the last link the crate's weight for a substep, 1 000 m/s,
// which the joints above take back within the same sweep.
// It reports whether a row had run away past the caps (see capped.go).
func capRows(p *stepParams, bodies []BodyState, sims []BodySim, rows []int32) bool {
	away := false
	for _, i := range rows {
		if sims[i].Kind == KindDynamic {
			st := &bodies[i]
			away = away || runsAway(p, st.V.LenSq(), st.W)
			st.V, st.W = capSpeeds(st.V, st.W, p.maxSpeed, p.maxAngularSpeed)
		}
	}
	return away
}

// relAngle returns the angle of B relative to A, less the reference angle:
// its value at the start of the step, in [-pi, pi], plus the turn of B
// relative to A since, so that within a step it runs on past pi rather
// than jump to -pi (a limit at 3.1 rad stays behind the body that passes
// it). The turn is taken with smallAngle: an arctangent in every pass over
// every limited revolute joint was an eighth of a heap of jointed chains'
// step.
func (j *Joint) relAngle(a, b *jointBody) float64 {
	q := a.dq.InvMul(b.dq)
	return j.angle0 + smallAngle(q.S, q.C)
}

// smallAngle returns atan2(s, c) for the unit vector (c, s): by the series
// of atan(s / c), to rounding, for the small turns of a step, else by
// math.Atan2.
func smallAngle(s, c float64) float64 {
	if c <= 0 || math.Abs(s) > 0.1*c {
		return math.Atan2(s, c)
	}
	// |t| <= 0.1: the first term left out, t^17 / 17, is below 6e-19.
	t := s / c
	t2 := t * t
	return t * (1 - t2*(1.0/3-t2*(1.0/5-t2*(1.0/7-t2*(1.0/9-t2*(1.0/11-t2*(1.0/13-t2*(1.0/15))))))))
}

// warmStartJoint applies the impulses j has accumulated: at a step's first
// substep, those of the last substep of the step before.
func (s *Solver) warmStartJoint(j *Joint, p *stepParams, elapsed float64) {
	a, b := s.side(j.A, j.KindA, elapsed), s.side(j.B, j.KindB, elapsed)
	rA, rB := a.dq.Rotate(j.rA), b.dq.Rotate(j.rB)
	d := b.dp.Sub(a.dp).Add(j.dc).Add(rB).Sub(rA) // from A's anchor to B's
	im := &j.Impulse
	var P components.Vec2
	var axial float64
	switch j.Kind {
	case components.JointRevolute:
		P, axial = im.Linear, im.Axial+im.Motor+im.Lower-im.Upper
		rA = rA.Add(d) // see solvePoint
	case components.JointWeld, components.JointMotor:
		P, axial = im.Linear, im.Angular
		rA = rA.Add(d)
	case components.JointDistance:
		axis, _ := d.Normalize()
		P = axis.Scale(im.Axial + im.Lower - im.Upper)
	case components.JointMouse:
		P = im.Linear
		rA = rA.Add(d)
	case components.JointPrismatic, components.JointWheel:
		// The impulses act along and across the line, at the point of B's
		// anchor on it (Box2D v3 b2WarmStartPrismaticJoint).
		g := j.line(&a, &b, rA, rB)
		along := im.Axial + im.Lower - im.Upper
		if j.Kind == components.JointPrismatic {
			along += im.Motor
			axial = im.Angular
		} else {
			axial = im.Motor
		}
		P = g.axis.Scale(along).MulAdd(im.Linear.X, g.perp)
		a.v = a.v.MulAdd(-j.mA, P)
		a.w -= j.iA * (along*g.a1 + im.Linear.X*g.s1 + axial)
		b.v = b.v.MulAdd(j.mB, P)
		b.w += j.iB * (along*g.a2 + im.Linear.X*g.s2 + axial)
		s.put(j.A, j.KindA, &a)
		s.put(j.B, j.KindB, &b)
		return
	}
	a.v = a.v.MulAdd(-j.mA, P)
	a.w -= j.iA * (rA.Cross(P) + axial)
	b.v = b.v.MulAdd(j.mB, P)
	b.w += j.iB * (rB.Cross(P) + axial)
	s.put(j.A, j.KindA, &a)
	s.put(j.B, j.KindB, &b)
}

// solveJoint runs one pass over the rows of j; useBias selects the soft
// correction of position errors (solve) or none (relax). Springs act in
// both, as forces do.
func (s *Solver) solveJoint(j *Joint, p *stepParams, elapsed float64, useBias bool) {
	a, b := s.side(j.A, j.KindA, elapsed), s.side(j.B, j.KindB, elapsed)
	switch j.Kind {
	case components.JointRevolute:
		s.solveRevolute(j, p, &a, &b, useBias)
	case components.JointWeld:
		s.solveWeld(j, p, &a, &b, useBias)
	case components.JointDistance:
		s.solveDistance(j, p, &a, &b, useBias)
	case components.JointPrismatic, components.JointWheel:
		s.solveLine(j, p, &a, &b, useBias)
	case components.JointMouse:
		s.solveMouse(j, p, &a, &b)
	case components.JointMotor:
		s.solveMotor(j, p, &a, &b)
	}
	s.put(j.A, j.KindA, &a)
	s.put(j.B, j.KindB, &b)
}

// limitImpulse solves one side of a limit whose position error is c (> 0
// while within the limit) and velocity error cdot along the limit's
// direction, with effective mass m: a speculative bound while within, a
// soft push-out past it (Box2D v3 b2SolveRevoluteJoint). It returns the
// change of the accumulated impulse *acc, which stays >= 0.
func limitImpulse(c, cdot, m float64, acc *float64, p *stepParams, useBias bool) float64 {
	bias, ms, is := 0.0, 1.0, 0.0
	if c > 0 {
		bias = c * p.invH
	} else if useBias {
		ms, is = p.joint.MassScale, p.joint.ImpulseScale
		bias = capBias(p.joint.BiasRate*c, p.maxPushOut+loadBias(*acc/m, ms, is))
	}
	imp := -m*ms*(cdot+bias) - is**acc
	n := math.Max(*acc+imp, 0)
	imp, *acc = n-*acc, n
	return imp
}

// capBias limits the speed (m/s, or rad/s for an angle) at which a joint's
// soft correction takes back an error: to MaxPushOut, the contacts' limit,
// over what the joint's load needs (loadBias). Uncapped, an error of metres
// was taken back at tens of metres a second: a light body holding long
// lever arms that struck the ground opened its joints 0.9 m in a step, and
// the correction of that fed the next, until the speeds ran past 1e100
// m/s. Capped at MaxPushOut alone, a loaded joint could not hold: a soft
// joint holds a steady load with a steady error, whose bias grows with the
// load, and a crane of 0.04 kg links carrying 100 kg stretched without end.
// Springs are not capped: their pull is the force the game asked for.
func capBias(b, limit float64) float64 { return math.Max(-limit, math.Min(b, limit)) }

// loadBias returns the bias at which a soft row of this softness (ms, is)
// holds still under its accumulated impulse: the impulse times the
// inverse effective mass (k acc), times is / ms, from 0 = -ms (cdot + bias)
// / k - is acc at cdot = 0.
func loadBias(kAcc, ms, is float64) float64 { return math.Abs(kAcc) * is / ms }

// capBias2 is capBias for a vector, along its own direction.
func capBias2(b components.Vec2, limit float64) components.Vec2 {
	if l := b.Len(); l > limit {
		return b.Scale(limit / l)
	}
	return b
}

// applySpin applies the angular impulse imp to B and its opposite to A.
func (j *Joint) applySpin(a, b *jointBody, imp float64) {
	a.w -= j.iA * imp
	b.w += j.iB * imp
}

func (s *Solver) solveRevolute(j *Joint, p *stepParams, a, b *jointBody, useBias bool) {
	im := &j.Impulse
	k := j.iA + j.iB
	axial := 0.0
	if k > 0 {
		axial = 1 / k
	}
	if j.EnableSpring && j.Hertz > 0 && k > 0 {
		// A torsion spring towards SpringTarget, the short way round: the
		// relative angle and the target both lie in [-pi, pi].
		c := j.relAngle(a, b) - j.SpringTarget
		if c > math.Pi {
			c -= 2 * math.Pi
		} else if c < -math.Pi {
			c += 2 * math.Pi
		}
		sp := j.spring
		imp := -sp.MassScale*axial*(b.w-a.w+sp.BiasRate*c) - sp.ImpulseScale*im.Axial
		im.Axial += imp
		j.applySpin(a, b, imp)
	}
	if j.EnableMotor && k > 0 {
		cdot := b.w - a.w - j.MotorSpeed
		old := im.Motor
		maxImp := p.h * j.MaxMotorTorque
		im.Motor = math.Max(-maxImp, math.Min(old-axial*cdot, maxImp))
		j.applySpin(a, b, im.Motor-old)
	}
	if !j.EnableLimit || k == 0 {
		s.solvePoint(j, p.joint, p.maxPushOut, 0, a, b, useBias)
		return
	}
	// The limit acts on the spins alone, and the point constraint after
	// it turns the impulse into a swing about the pin: one pass of each
	// stops a pendulum's swing only in part. A 2 m pendulum striking its
	// limit at 2.1 rad/s went 0.046 rad past it and came back off it at
	// 1.3 rad/s with one pass; with limitPasses, 0.017 and 0.46. Box2D
	// v2.4 solved the two as one 3 x 3 system.
	angle := j.relAngle(a, b)
	// Far from both limits, and not pressing on either, the limits give
	// no impulse: one pass is the same, at a quarter of the cost.
	passes, spin := 1, b.w-a.w
	lo, hi := angle-j.Lower, j.Upper-angle
	if im.Lower > 0 || im.Upper > 0 || lo <= 0 || hi <= 0 || spin+lo*p.invH < 0 || -spin+hi*p.invH < 0 {
		passes = limitPasses
	}
	for range passes {
		imp := limitImpulse(angle-j.Lower, b.w-a.w, axial, &im.Lower, p, useBias)
		j.applySpin(a, b, imp)
		imp = limitImpulse(j.Upper-angle, a.w-b.w, axial, &im.Upper, p, useBias)
		j.applySpin(a, b, -imp)
		s.solvePoint(j, p.joint, p.maxPushOut, 0, a, b, useBias)
	}
}

// limitPasses is the number of alternations of a revolute joint's limit
// and point constraint in one pass over the joint.
const limitPasses = 4

func (s *Solver) solveWeld(j *Joint, p *stepParams, a, b *jointBody, useBias bool) {
	soft, springy, limit := p.joint, j.EnableSpring && j.Hertz > 0, p.maxPushOut
	if springy {
		soft, limit = j.spring, math.Inf(1)
	}
	if k := j.iA + j.iB; k > 0 {
		bias, ms, is := 0.0, 1.0, 0.0
		if useBias || springy {
			ms, is = soft.MassScale, soft.ImpulseScale
			bias = capBias(soft.BiasRate*j.relAngle(a, b), limit+loadBias(k*j.Impulse.Angular, ms, is))
		}
		imp := -ms*(b.w-a.w+bias)/k - is*j.Impulse.Angular
		j.Impulse.Angular += imp
		j.applySpin(a, b, imp)
	}
	s.solvePoint(j, soft, limit, 0, a, b, useBias || springy)
}

// solvePoint solves the point constraint of a revolute or weld joint: the
// two anchors at one place, a 2 x 2 system in the anchor's velocity.
//
// The constraint is on the velocity of B's anchor relative to the point of
// A where B's anchor is, not A's own anchor (Box2D takes A's anchor): the
// two differ by the joint's error, and an impulse that acts on both bodies
// at one point turns the pair by nothing. With A's own anchor, two joined
// bodies spun in zero gravity lost 1e-5 of their angular momentum in 300
// steps; now they keep it to rounding, as the prismatic joint did already.
//
// limit caps the speed of the soft correction (capBias), and maxImpulse,
// if > 0, the size of the accumulated impulse (a mouse joint's force).
func (s *Solver) solvePoint(j *Joint, soft Softness, limit, maxImpulse float64, a, b *jointBody, useBias bool) {
	rA, rB := a.dq.Rotate(j.rA), b.dq.Rotate(j.rB)
	sep := b.dp.Sub(a.dp).Add(rB.Sub(rA)).Add(j.dc)
	rA = rA.Add(sep)
	cdot := b.v.Add(components.CrossSV(b.w, rB)).Sub(a.v.Add(components.CrossSV(a.w, rA)))
	m := j.mA + j.mB
	k11 := m + rA.Y*rA.Y*j.iA + rB.Y*rB.Y*j.iB
	k12 := -rA.Y*rA.X*j.iA - rB.Y*rB.X*j.iB
	k22 := m + rA.X*rA.X*j.iA + rB.X*rB.X*j.iB
	det := k11*k22 - k12*k12
	if det == 0 {
		return
	}
	old := j.Impulse.Linear
	bias := components.Vec2{}
	ms, is := 1.0, 0.0
	if useBias {
		ms, is = soft.MassScale, soft.ImpulseScale
		load := components.V(k11*old.X+k12*old.Y, k12*old.X+k22*old.Y) // K old
		bias = capBias2(sep.Scale(soft.BiasRate), limit+loadBias(load.Len(), ms, is))
	}
	r, inv := cdot.Add(bias), 1/det
	x := components.V((k22*r.X-k12*r.Y)*inv, (k11*r.Y-k12*r.X)*inv)
	imp := x.Scale(-ms).MulAdd(-is, old)
	if acc := old.Add(imp); maxImpulse > 0 && acc.LenSq() > maxImpulse*maxImpulse {
		imp = acc.Scale(maxImpulse / acc.Len()).Sub(old)
	}
	j.Impulse.Linear = old.Add(imp)
	a.v = a.v.MulAdd(-j.mA, imp)
	a.w -= j.iA * rA.Cross(imp)
	b.v = b.v.MulAdd(j.mB, imp)
	b.w += j.iB * rB.Cross(imp)
}

func (s *Solver) solveDistance(j *Joint, p *stepParams, a, b *jointBody, useBias bool) {
	rA, rB := a.dq.Rotate(j.rA), b.dq.Rotate(j.rB)
	d := b.dp.Sub(a.dp).Add(j.dc).Add(rB).Sub(rA)
	axis, length := d.Normalize()
	if length == 0 {
		axis = components.V(1, 0) // coincident anchors: any direction is as good
	}
	crA, crB := rA.Cross(axis), rB.Cross(axis)
	k := j.mA + j.mB + j.iA*crA*crA + j.iB*crB*crB
	if k == 0 {
		return
	}
	m := 1 / k
	im := &j.Impulse
	// vr is the velocity of B's anchor relative to A's, recomputed after
	// each impulse along the axis.
	vr := func() float64 {
		return b.v.Add(components.CrossSV(b.w, rB)).Sub(a.v.Add(components.CrossSV(a.w, rA))).Dot(axis)
	}
	apply := func(imp float64) {
		P := axis.Scale(imp)
		a.v = a.v.MulAdd(-j.mA, P)
		a.w -= j.iA * rA.Cross(P)
		b.v = b.v.MulAdd(j.mB, P)
		b.w += j.iB * rB.Cross(P)
	}
	if !j.EnableSpring {
		bias, ms, is := 0.0, 1.0, 0.0
		if useBias {
			ms, is = p.joint.MassScale, p.joint.ImpulseScale
			bias = capBias(p.joint.BiasRate*(length-j.Length), p.maxPushOut+loadBias(k*im.Axial, ms, is))
		}
		imp := -ms*m*(vr()+bias) - is*im.Axial
		im.Axial += imp
		apply(imp)
		return
	}
	if j.Hertz > 0 {
		sp := j.spring
		imp := -sp.MassScale*m*(vr()+sp.BiasRate*(length-j.Length)) - sp.ImpulseScale*im.Axial
		im.Axial += imp
		apply(imp)
	}
	if j.EnableLimit {
		apply(limitImpulse(length-j.Lower, vr(), m, &im.Lower, p, useBias))
		apply(-limitImpulse(j.Upper-length, -vr(), m, &im.Upper, p, useBias))
	}
}

// lineFrame is the geometry of a prismatic or wheel joint in a substep:
// the axis and its normal as A has turned them, B's anchor's translation
// along the axis and offset across it, and the lever arms of the impulses
// along (a1, a2) and across (s1, s2) the line: an impulse along the axis
// acts on A at B's anchor, so the translation itself is part of A's arm
// (Box2D v3 prismatic_joint.c).
type lineFrame struct {
	axis, perp     components.Vec2
	along, across  float64
	a1, a2, s1, s2 float64
}

func (j *Joint) line(a, b *jointBody, rA, rB components.Vec2) lineFrame {
	d := b.dp.Sub(a.dp).Add(j.dc).Add(rB).Sub(rA)
	axis := a.dq.Rotate(j.axis)
	perp := axis.Perp()
	arm := d.Add(rA)
	return lineFrame{axis: axis, perp: perp, along: axis.Dot(d), across: perp.Dot(d),
		a1: arm.Cross(axis), a2: rB.Cross(axis), s1: arm.Cross(perp), s2: rB.Cross(perp)}
}

// solveLine solves a prismatic or wheel joint: the spring, the motor and
// the limits along the axis, then the line itself (and for a prismatic
// joint the angle, as one 2 x 2 system with the line).
func (s *Solver) solveLine(j *Joint, p *stepParams, a, b *jointBody, useBias bool) {
	rA, rB := a.dq.Rotate(j.rA), b.dq.Rotate(j.rB)
	g := j.line(a, b, rA, rB)
	im := &j.Impulse
	k := j.mA + j.mB + j.iA*g.a1*g.a1 + j.iB*g.a2*g.a2
	if k == 0 {
		return
	}
	m := 1 / k
	// vAlong is the speed of B's anchor along the axis relative to A.
	vAlong := func() float64 {
		return g.axis.Dot(b.v.Sub(a.v)) + g.a2*b.w - g.a1*a.w
	}
	alongImpulse := func(imp float64) {
		P := g.axis.Scale(imp)
		a.v = a.v.MulAdd(-j.mA, P)
		a.w -= j.iA * g.a1 * imp
		b.v = b.v.MulAdd(j.mB, P)
		b.w += j.iB * g.a2 * imp
	}
	if j.EnableSpring && j.Hertz > 0 {
		sp := j.spring
		imp := -sp.MassScale*m*(vAlong()+sp.BiasRate*(g.along-j.SpringTarget)) - sp.ImpulseScale*im.Axial
		im.Axial += imp
		alongImpulse(imp)
	}
	if j.EnableMotor {
		if j.Kind == components.JointPrismatic {
			old, lim := im.Motor, p.h*j.MaxMotorForce
			im.Motor = math.Max(-lim, math.Min(old+m*(j.MotorSpeed-vAlong()), lim))
			alongImpulse(im.Motor - old)
		} else if kw := j.iA + j.iB; kw > 0 {
			old, lim := im.Motor, p.h*j.MaxMotorTorque
			im.Motor = math.Max(-lim, math.Min(old-(b.w-a.w-j.MotorSpeed)/kw, lim))
			j.applySpin(a, b, im.Motor-old)
		}
	}
	if j.EnableLimit {
		alongImpulse(limitImpulse(g.along-j.Lower, vAlong(), m, &im.Lower, p, useBias))
		alongImpulse(-limitImpulse(j.Upper-g.along, -vAlong(), m, &im.Upper, p, useBias))
	}
	bias, ms, is := 0.0, 1.0, 0.0
	if useBias {
		bias, ms, is = p.joint.BiasRate, p.joint.MassScale, p.joint.ImpulseScale
	}
	vAcross := g.perp.Dot(b.v.Sub(a.v)) + g.s2*b.w - g.s1*a.w
	k11 := j.mA + j.mB + j.iA*g.s1*g.s1 + j.iB*g.s2*g.s2
	if j.Kind == components.JointWheel {
		if k11 == 0 {
			return
		}
		bc := capBias(bias*g.across, p.maxPushOut+loadBias(k11*im.Linear.X, ms, is))
		imp := -ms*(vAcross+bc)/k11 - is*im.Linear.X
		im.Linear.X += imp
		P := g.perp.Scale(imp)
		a.v = a.v.MulAdd(-j.mA, P)
		a.w -= j.iA * g.s1 * imp
		b.v = b.v.MulAdd(j.mB, P)
		b.w += j.iB * g.s2 * imp
		return
	}
	k12 := j.iA*g.s1 + j.iB*g.s2
	k22 := j.iA + j.iB
	if k22 == 0 {
		k22 = 1 // neither side turns: the angle row is free
	}
	det := k11*k22 - k12*k12
	if det == 0 {
		return
	}
	r := components.V(vAcross, b.w-a.w)
	if useBias {
		r = r.Add(components.V(
			capBias(bias*g.across, p.maxPushOut+loadBias(k11*im.Linear.X+k12*im.Angular, ms, is)),
			capBias(bias*j.relAngle(a, b), p.maxPushOut+loadBias(k12*im.Linear.X+k22*im.Angular, ms, is))))
	}
	inv := 1 / det
	x := components.V((k22*r.X-k12*r.Y)*inv, (k11*r.Y-k12*r.X)*inv)
	imp := components.V(-ms*x.X-is*im.Linear.X, -ms*x.Y-is*im.Angular)
	im.Linear.X += imp.X
	im.Angular += imp.Y
	P := g.perp.Scale(imp.X)
	a.v = a.v.MulAdd(-j.mA, P)
	a.w -= j.iA * (imp.X*g.s1 + imp.Y)
	b.v = b.v.MulAdd(j.mB, P)
	b.w += j.iB * (imp.X*g.s2 + imp.Y)
}

// solveMotor drives B's angle relative to A's and B's anchor towards their
// targets with capped torque and force (Box2D v3 motor_joint.c, whose
// correction factor is the spring here): on the joint's spring in both
// passes, as springs do, or at Hertz 0 as a velocity constraint alone, so
// that it only takes away the relative motion.
func (s *Solver) solveMotor(j *Joint, p *stepParams, a, b *jointBody) {
	springy := j.Hertz > 0
	if k := j.iA + j.iB; k > 0 && j.MaxMotorTorque > 0 {
		bias, ms, is := 0.0, 1.0, 0.0
		if springy {
			bias, ms, is = j.spring.BiasRate*j.relAngle(a, b), j.spring.MassScale, j.spring.ImpulseScale
		}
		old, lim := j.Impulse.Angular, p.h*j.MaxMotorTorque
		j.Impulse.Angular = math.Max(-lim, math.Min(old-ms*(b.w-a.w+bias)/k-is*old, lim))
		j.applySpin(a, b, j.Impulse.Angular-old)
	}
	if j.MaxForce > 0 {
		s.solvePoint(j, j.spring, math.Inf(1), p.h*j.MaxForce, a, b, springy)
	}
}

// solveMouse pulls B's anchor towards A's on the joint's spring (Hertz >
// 0, JointSpec.Check), in both passes as springs do, with the accumulated
// impulse capped at MaxForce over the substep (Box2D v3 mouse_joint.c).
func (s *Solver) solveMouse(j *Joint, p *stepParams, a, b *jointBody) {
	maxImpulse := 0.0
	if j.MaxForce > 0 {
		maxImpulse = p.h * j.MaxForce
	}
	s.solvePoint(j, j.spring, math.Inf(1), maxImpulse, a, b, true)
}

// Joint colours: the joints of the large islands, coloured so that no two
// joints of a colour move the same body, can share each colour among the
// workers (Box2D v3 colours its joints with its contacts). A heap of 200
// jointed chains is one island, and its 2 000 joints on one worker held
// the second to a tenth of the gain.
const (
	// overflowJointColor is the last colour: the joints of a body that
	// already has joints of every other colour, run on one worker.
	overflowJointColor = 63
	// jointGrain is the least number of joints worth a worker.
	jointGrain = 64
)

// colorJoints colours the joints of the large islands, greedily in island
// and joint order, and lays them out colour by colour in jointOrder.
func (s *Solver) colorJoints() {
	is := &s.Islands
	s.jointMask = resize(s.jointMask, len(s.Sims))
	n := 0
	for li := range s.large {
		for _, ji := range is.Joints(int(s.large[li].island)) {
			j := &s.Joints[ji]
			for _, r := range [2]int32{j.A, j.B} {
				if r >= 0 {
					s.jointMask[r] = 0
				}
			}
			n++
		}
	}
	s.jointColor = resize(s.jointColor, n)
	var count [overflowJointColor + 2]int32
	k := 0
	for li := range s.large {
		for _, ji := range is.Joints(int(s.large[li].island)) {
			j := &s.Joints[ji]
			var m uint64
			if j.A >= 0 && j.KindA == KindDynamic {
				m |= s.jointMask[j.A]
			}
			if j.B >= 0 && j.KindB == KindDynamic {
				m |= s.jointMask[j.B]
			}
			c := min(bits.TrailingZeros64(^m), overflowJointColor)
			if j.A >= 0 && j.KindA == KindDynamic {
				s.jointMask[j.A] |= 1 << c
			}
			if j.B >= 0 && j.KindB == KindDynamic {
				s.jointMask[j.B] |= 1 << c
			}
			s.jointColor[k] = uint8(c)
			count[c+1]++
			k++
		}
	}
	colors := 0
	for c := range overflowJointColor + 1 {
		if count[c+1] > 0 {
			colors = c + 1
		}
	}
	s.jointColorStart = s.jointColorStart[:0]
	pos := int32(0)
	for c := 0; c < colors; c++ {
		s.jointColorStart = append(s.jointColorStart, pos)
		pos, count[c] = pos+count[c+1], pos
	}
	s.jointColorStart = append(s.jointColorStart, pos)
	s.jointOrder = resize(s.jointOrder, n)
	k = 0
	for li := range s.large {
		for _, ji := range is.Joints(int(s.large[li].island)) {
			c := s.jointColor[k]
			s.jointOrder[count[c]] = ji
			count[c]++
			k++
		}
	}
}

// A body held by several joints (a hub: a wheel with seats, a ragdoll's
// torso) couples them, and one Gauss-Seidel pass over them per stage does
// not settle that coupling: a 1 kg hub spinning at 0.5 rad/s in zero
// gravity with four 0.5 kg bodies pinned 2 m out opened its pins
// exponentially, to 7 m in 200 steps, and a 10 kg Ferris wheel with eight
// 50 kg seats, starting at rest, spun itself up to 13 rad/s. With three
// bodies on the hub it held. Four sweeps held eight seats but not twelve;
// eight held twelve but not sixteen (sixteen held sixteen but not 24, and
// no count held a light hub spinning with 24 spokes): the sweeps needed
// grow with the joints at the hub and their mass over the hub's, and they
// cost a sweep over every joint of the island. So the solve and relax
// sweep the joints of an island as many times as the most joints one of
// its bodies holds, from hubJoints on, up to maxJointPasses; other
// islands (chains, ropes, single joints) once.
const (
	hubJoints      = 3
	maxJointPasses = 8
	// hubShare is the least mass, over a body's own at the joint's anchor,
	// of a dynamic body whose joint to it counts towards a hub: a light
	// body hung on another does not make it one. Counted by joints alone,
	// a 10 mg bead pinned to a link of a welded beam softened the whole
	// beam: its tip sagged 0.47 m instead of 0.12, and sprang up at 3 m/s
	// when the bead came off. Counted by the mass the hub carries against
	// its own (4 times or more), a 1 kg hub of 0.3 m radius with spokes
	// 1.5 m out went unsoftened and tore apart: at those anchors it weighs
	// 20 g.
	hubShare = 0.1
)

// jointPasses returns the number of sweeps over the joints of island k in
// the solve and relax (see hubJoints), and whether its rigid joints take
// the hub's softness (hubJointSoftness): whether it has a hub.
func (s *Solver) jointPasses(k int) (passes uint8, soft bool) {
	most := uint8(0)
	for _, ji := range s.Islands.Joints(k) {
		j := &s.Joints[ji]
		if j.A >= 0 && j.KindA == KindDynamic {
			most = max(most, s.jointsOf[j.A])
		}
		if j.B >= 0 && j.KindB == KindDynamic {
			most = max(most, s.jointsOf[j.B])
		}
	}
	if most < hubJoints {
		return 1, false
	}
	return min(most, maxJointPasses), true
}

// countJoints counts each dynamic body row's joints that load it (up to
// 255), for jointPasses: those to a static or kinematic body or the world,
// and those to a dynamic body of at least hubShare of the body's mass as
// the joint's anchor feels it, 1 / (1/m + r^2/I) at the anchor's distance r
// from its centre.
func (s *Solver) countJoints() {
	if len(s.Joints) == 0 {
		return
	}
	s.jointsOf = resize(s.jointsOf, len(s.Sims))
	clear(s.jointsOf)
	count := func(r int32, anchor components.Vec2, other int32, otherDynamic bool) {
		sim := &s.Sims[r]
		atAnchor := sim.InvMass + sim.InvInertia*anchor.LenSq() // 1 / its mass at the anchor
		if s.jointsOf[r] < 255 && (!otherDynamic || atAnchor >= hubShare*s.Sims[other].InvMass) {
			s.jointsOf[r]++
		}
	}
	for i := range s.Joints {
		j := &s.Joints[i]
		a := j.A >= 0 && j.KindA == KindDynamic
		b := j.B >= 0 && j.KindB == KindDynamic
		if a {
			count(j.A, j.LocalAnchorA, j.B, b)
		}
		if b {
			count(j.B, j.LocalAnchorB, j.A, a)
		}
	}
}

// capJointedRows is capRows over those of rows (of the large islands) whose
// island has joints: a joint elsewhere must not cap the speeds contacts
// give an island of its own. It flags the rows that had run away past the
// caps in rowCapped (see capped.go); the workers cap disjoint rows.
func (s *Solver) capJointedRows(p *stepParams, rows []int32) {
	is := &s.Islands
	for _, i := range rows {
		if k := is.Of[i]; s.Sims[i].Kind == KindDynamic && is.JointStart[k+1] > is.JointStart[k] {
			st := &s.Bodies[i]
			if runsAway(p, st.V.LenSq(), st.W) {
				s.rowCapped[i] = true
			}
			st.V, st.W = capSpeeds(st.V, st.W, p.maxSpeed, p.maxAngularSpeed)
		}
	}
}
