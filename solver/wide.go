package solver

import (
	"math"

	"github.com/tumble2d/tumble/components"
)

// lanes is the width of a wide block: four float64 lanes, one AVX2 register.
const lanes = 4

// bodyStride is the size of a [BodyState] row; the wide kernels address rows
// by byte offset.
const bodyStride = 64

// wideContact holds four contacts of one colour lane by lane (struct of
// arrays), the layout of Box2D v3's b2ContactConstraintSIMD: a kernel loads
// each field of the four contacts with one instruction and solves them
// together. No two contacts of a colour share a dynamic body, so the lanes
// are independent, and each lane does exactly the arithmetic of
// solveContact, in the same order: the results are those of the scalar
// kernel whatever the grouping (up to the sign of zeros).
//
// The field offsets are hard-coded in wide_amd64.s; TestWideLayout checks
// them.
type wideContact struct {
	// offA and offB are the byte offsets of the body rows in Bodies: a
	// static side, or an empty lane, points at the zero row appended past
	// the last body (velocity 0, delta 0, rotation identity).
	offA, offB [lanes]int64
	// maskA and maskB are -1 where that side is dynamic: only those rows are
	// written back. Kinematic rows are read, with the delta pose of the
	// current stage written into them beforehand (see setKinematic).
	maskA, maskB                      [lanes]int64
	nx, ny                            [lanes]float64
	friction                          [lanes]float64
	mA, iA, mB, iB                    [lanes]float64
	biasRate, massScale, impulseScale [lanes]float64
	pts                               [2]widePoint
	// points is 1 when no lane has a second point: the kernels then skip
	// it (and the point order does not alternate), else 2.
	points int64
	_      [3]int64
}

// widePoint is point j of the four contacts of a block. A contact with one
// point leaves its second lane zero, which applies a zero impulse.
type widePoint struct {
	rAx, rAy, rBx, rBy                              [lanes]float64
	baseSep, normalMass, tangentMass                [lanes]float64
	normalImpulse, tangentImpulse, maxNormalImpulse [lanes]float64
}

// wideParams are the per-stage constants of the wide kernels, as full
// vectors so the kernels use them as memory operands.
type wideParams struct {
	zero, one, sign     [lanes]float64
	invH, negMaxPushOut [lanes]float64
	// biasMask is all ones (solve) or all zeros (relax): ANDed with the soft
	// bias and the impulse scale, it turns the soft branch into the relax
	// branch of solveContact without a second kernel.
	biasMask [lanes]float64
	flip     int64 // nonzero: solve point 1 before point 0
}

func splat(x float64) [lanes]float64 { return [lanes]float64{x, x, x, x} }

// setWideParams fills the constants of a solve (useBias) or relax stage.
func (s *Solver) setWideParams(useBias, flip bool) {
	w := &s.wp
	w.zero, w.one, w.sign = splat(0), splat(1), splat(math.Copysign(0, -1))
	w.invH, w.negMaxPushOut = splat(s.p.invH), splat(-s.p.maxPushOut)
	w.biasMask = splat(0)
	if useBias {
		w.biasMask = splat(math.Float64frombits(^uint64(0)))
	}
	w.flip = 0
	if flip {
		w.flip = 1
	}
}

// buildWide lays the colours out in blocks of four: colour k owns blocks
// [blockStart[k], blockStart[k+1]), its last block padded with empty lanes.
// It also appends the zero row that static sides read, and lists the
// kinematic rows the large islands touch.
func (s *Solver) buildWide() {
	nb := len(s.Bodies)
	s.Bodies = append(s.Bodies, BodyState{DQ: components.Identity})
	s.dummyOff = int64(nb) * bodyStride
	s.blockStart = s.blockStart[:0]
	s.blockFirst = s.blockFirst[:0]
	s.blockEnd = s.blockEnd[:0]
	for k := 0; k+1 < len(s.colorStart); k++ {
		s.blockStart = append(s.blockStart, int32(len(s.blockFirst)))
		end := s.colorStart[k+1]
		for c := s.colorStart[k]; c < end; c += lanes {
			s.blockFirst = append(s.blockFirst, c)
			s.blockEnd = append(s.blockEnd, min(c+lanes, end))
		}
	}
	s.blockStart = append(s.blockStart, int32(len(s.blockFirst)))
	s.blocks = resize(s.blocks, len(s.blockFirst))
	s.kinRows = s.kinRows[:0]
	for _, li := range s.largeLinks {
		l := &s.Links[li]
		if l.KindA == KindKinematic {
			s.kinRows = append(s.kinRows, l.A)
		}
		if l.KindB == KindKinematic {
			s.kinRows = append(s.kinRows, l.B)
		}
	}
}

// fillWide copies the prepared contacts of block b into its lanes.
func (s *Solver) fillWide(b int) {
	w := &s.blocks[b]
	*w = wideContact{}
	cs := s.Contacts[s.blockFirst[b]:s.blockEnd[b]]
	for l := 0; l < lanes; l++ {
		if l >= len(cs) {
			w.offA[l], w.offB[l] = s.dummyOff, s.dummyOff
			continue
		}
		c := &cs[l]
		w.offA[l], w.maskA[l] = s.sideOffset(c.A, c.KindA)
		w.offB[l], w.maskB[l] = s.sideOffset(c.B, c.KindB)
		w.nx[l], w.ny[l] = c.Normal.X, c.Normal.Y
		w.friction[l] = c.Friction
		w.mA[l], w.iA[l], w.mB[l], w.iB[l] = c.InvMassA, c.InvIA, c.InvMassB, c.InvIB
		soft := &s.p.soft
		if c.KindA != KindDynamic || c.KindB != KindDynamic {
			soft = &s.p.stiff
		}
		w.biasRate[l], w.massScale[l], w.impulseScale[l] = soft.BiasRate, soft.MassScale, soft.ImpulseScale
		w.points = max(w.points, int64(c.Count))
		for j := int32(0); j < c.Count; j++ {
			cp, wp := &c.Points[j], &w.pts[j]
			wp.rAx[l], wp.rAy[l], wp.rBx[l], wp.rBy[l] = cp.RA.X, cp.RA.Y, cp.RB.X, cp.RB.Y
			wp.baseSep[l], wp.normalMass[l], wp.tangentMass[l] = cp.BaseSeparation, cp.NormalMass, cp.TangentMass
			wp.normalImpulse[l], wp.tangentImpulse[l] = cp.NormalImpulse, cp.TangentImpulse
			wp.maxNormalImpulse[l] = cp.MaxNormalImpulse
		}
	}
}

// sideOffset returns the row offset and write mask of one side of a contact.
func (s *Solver) sideOffset(i int32, k Kind) (int64, int64) {
	switch k {
	case KindDynamic:
		return int64(i) * bodyStride, -1
	case KindKinematic:
		return int64(i) * bodyStride, 0
	}
	return s.dummyOff, 0
}

// storeWide copies the impulses of block b back into its contacts, for
// restitution and warm starting.
func (s *Solver) storeWide(b int) {
	w := &s.blocks[b]
	cs := s.Contacts[s.blockFirst[b]:s.blockEnd[b]]
	for l := range cs {
		c := &cs[l]
		for j := int32(0); j < c.Count; j++ {
			cp, wp := &c.Points[j], &w.pts[j]
			cp.NormalImpulse, cp.TangentImpulse = wp.normalImpulse[l], wp.tangentImpulse[l]
			cp.MaxNormalImpulse = wp.maxNormalImpulse[l]
		}
	}
}

// setKinematic writes into the kinematic rows the delta pose they have at
// elapsed into the step, exactly as solveContact computes it, so that the
// wide kernels read kinematic sides like dynamic ones. Call with 0 to leave
// the rows as gathered.
func (s *Solver) setKinematic(elapsed float64) {
	for _, i := range s.kinRows {
		st := &s.Bodies[i]
		st.DP = components.Vec2{X: elapsed * st.V.X, Y: elapsed * st.V.Y}
		st.DQ = components.Rot{C: 1, S: elapsed * st.W}.Normalize()
	}
}

// warmWideRef and solveWideRef are the wide kernels in Go, lane by lane:
// the readable statement of what wide_amd64.s computes, and its oracle in
// the tests (the two agree bit for bit). Bodies must hold the zero row at
// the offset the blocks use for static sides.
func warmWideRef(blocks []wideContact, bodies []BodyState) {
	for b := range blocks {
		w := &blocks[b]
		for l := 0; l < lanes; l++ {
			ra, rb := &bodies[w.offA[l]/bodyStride], &bodies[w.offB[l]/bodyStride]
			vA, wA, vB, wB := ra.V, ra.W, rb.V, rb.W
			n := components.Vec2{X: w.nx[l], Y: w.ny[l]}
			t := n.RightPerp()
			for j := range w.pts[:w.points] {
				p := &w.pts[j]
				P := n.Scale(p.normalImpulse[l]).MulAdd(p.tangentImpulse[l], t)
				vA = vA.MulAdd(-w.mA[l], P)
				wA -= w.iA[l] * components.V(p.rAx[l], p.rAy[l]).Cross(P)
				vB = vB.MulAdd(w.mB[l], P)
				wB += w.iB[l] * components.V(p.rBx[l], p.rBy[l]).Cross(P)
			}
			if w.maskA[l] != 0 {
				ra.V, ra.W = vA, wA
			}
			if w.maskB[l] != 0 {
				rb.V, rb.W = vB, wB
			}
		}
	}
}

func solveWideRef(blocks []wideContact, bodies []BodyState, prm *wideParams) {
	useBias := math.Float64bits(prm.biasMask[0]) != 0
	for b := range blocks {
		w := &blocks[b]
		for l := 0; l < lanes; l++ {
			ra, rb := &bodies[w.offA[l]/bodyStride], &bodies[w.offB[l]/bodyStride]
			c := Contact{KindA: KindDynamic, KindB: KindDynamic, Count: int32(w.points),
				Normal: components.Vec2{X: w.nx[l], Y: w.ny[l]}, Friction: w.friction[l],
				InvMassA: w.mA[l], InvIA: w.iA[l], InvMassB: w.mB[l], InvIB: w.iB[l]}
			for j := range w.pts {
				p := &w.pts[j]
				c.Points[j] = ContactPoint{RA: components.V(p.rAx[l], p.rAy[l]), RB: components.V(p.rBx[l], p.rBy[l]),
					BaseSeparation: p.baseSep[l], NormalMass: p.normalMass[l], TangentMass: p.tangentMass[l],
					NormalImpulse: p.normalImpulse[l], TangentImpulse: p.tangentImpulse[l],
					MaxNormalImpulse: p.maxNormalImpulse[l]}
			}
			// Two rows standing for the lane's bodies, read and written by
			// the scalar kernel with the lane's own softness.
			pair := [2]BodyState{*ra, *rb}
			c.A, c.B = 0, 1
			sp := stepParams{invH: prm.invH[0], maxPushOut: -prm.negMaxPushOut[0],
				soft: Softness{BiasRate: w.biasRate[l], MassScale: w.massScale[l], ImpulseScale: w.impulseScale[l]}}
			solveContact(&c, pair[:], &sp, 0, useBias, prm.flip != 0)
			for j := range w.pts {
				p := &w.pts[j]
				p.normalImpulse[l], p.tangentImpulse[l] = c.Points[j].NormalImpulse, c.Points[j].TangentImpulse
				p.maxNormalImpulse[l] = c.Points[j].MaxNormalImpulse
			}
			if w.maskA[l] != 0 {
				ra.V, ra.W = pair[0].V, pair[0].W
			}
			if w.maskB[l] != 0 {
				rb.V, rb.W = pair[1].V, pair[1].W
			}
		}
	}
}
