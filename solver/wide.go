package solver

import (
	"math"
	"slices"
	"unsafe"

	"github.com/tumble2d/tumble/components"
)

// lanes is the width of a wide block: eight float64 lanes, one AVX-512
// register, or two AVX2 registers (the AVX2 kernels take a block in two
// halves of four lanes).
const lanes = 8

// bodyStride is the size of a [BodyState] row; the wide kernels address rows
// by byte offset.
const bodyStride = 64

// wideContact holds eight contacts of one colour lane by lane (struct of
// arrays), the layout of Box2D v3's b2ContactConstraintSIMD: a kernel loads
// each field of the eight contacts with one instruction (two with AVX2) and
// solves them together. No two contacts of a colour share a dynamic body,
// so the lanes are independent, and each lane does exactly the arithmetic
// of solveContact, in the same order: the results are those of the scalar
// kernel whatever the grouping (up to the sign of zeros).
//
// [Solver.SetContact] writes each lane straight from the prepared contact,
// so a coloured contact never goes through the Contacts array. The field
// offsets are hard-coded in wide_amd64.s; TestWideLayout checks them.
type wideContact struct {
	// offA and offB are the byte offsets of the body rows in Bodies: a
	// static side, or an empty lane, points at the zero row appended past
	// the last body (velocity 0, delta 0, rotation identity).
	offA, offB     [lanes]int64
	nx, ny         [lanes]float64
	friction       [lanes]float64
	mA, iA, mB, iB [lanes]float64
	// maskA and maskB are -1 where that side is dynamic: only those rows are
	// written back. Kinematic rows are read, with the delta pose of the
	// current stage written into them beforehand (see setKinematic).
	maskA, maskB [lanes]int8
	// stiff is -1 where a side is static or kinematic: the lane then takes
	// the stiffer softness of the stage parameters.
	stiff [lanes]int8
	// heavy is -1 where the contact's island has masses apart by more
	// than the heavy ratio (Solver.heavyLink): the lane then pushes deep
	// overlap at the full rate and, unless stiff, takes the heavy
	// softness.
	heavy [lanes]int8
	// points is 1 when no lane has a second point: the kernels then skip
	// it (and the point order does not alternate), else 2. It also sets
	// how long the block is in the arena (blockBytes).
	points int64
	// The flags are bytes that the kernels widen to lane masks, and the
	// fields only the restitution pass reads are in wideCold: the header
	// is 640 bytes (10 cache lines) and each point as many, against 36
	// lines a block with 64-bit flags and those fields inside.
	_   [24]byte
	pts [2]widePoint
}

// wideUnit is the unit of the block arena: a header or a point (640
// bytes, ten cache lines). A two-point block takes three units and a
// one-point block two, its second point being left out: the block after
// it starts there, and the kernels step from block to block by each one's
// point count (NEXTBLOCK in wide_amd64.h). Laid out as whole blocks, a
// one-point block's second point was ten lines that no pass read but that
// the hardware prefetchers brought in as they streamed through the
// blocks. On circle_rain (all of its blocks have one point, 3.2 MB of
// them instead of 4.75) the warm start went from 51.7-55.7 to 47.1-50.4 ns
// a block and the solve stayed at 63-69 (it waits on its chain of
// operations, not on memory); its step took 1.5-3 % less, and mixed_pile's
// 1.7 % (medians of alternating runs, same checksums).
type wideUnit [80]uint64

// wideHeader is the size of a block before its points.
const wideHeader = unsafe.Offsetof(wideContact{}.pts)

// blockBytes returns how long a block of that point count is in the arena.
func blockBytes(points int64) uintptr {
	return wideHeader + uintptr(points)*unsafe.Sizeof(widePoint{})
}

// nextBlock returns the block after w in the arena. Call it only when
// there is one: past the last block it points outside the arena.
func nextBlock(w *wideContact) *wideContact {
	return (*wideContact)(unsafe.Add(unsafe.Pointer(w), blockBytes(w.points)))
}

// block returns block b. The arena ends with a spare unit, so that the
// whole wideContact of any block, a one-point block last included, lies
// in it (the checkptr rules of unsafe.Pointer).
func (s *Solver) block(b int) *wideContact {
	return (*wideContact)(unsafe.Pointer(&s.arena[s.blockOff[b]]))
}

// widePoint is point j of the eight contacts of a block. A contact with one
// point leaves its second lane zero, which applies a zero impulse.
type widePoint struct {
	rAx, rAy, rBx, rBy                              [lanes]float64
	baseSep, normalMass, tangentMass                [lanes]float64
	normalImpulse, tangentImpulse, maxNormalImpulse [lanes]float64
}

// wideCold holds what the restitution pass and Approach read of a block's
// contacts, and the warm start, solve and relax do not: Solver.cold[b]
// belongs to block b.
type wideCold struct {
	restitution [lanes]float64
	relVel      [2][lanes]float64 // per point
	// count is each lane's own point count (0 for padding). A block runs
	// its point count on every lane, a one-point lane's second point
	// applying nothing; the restitution pass takes the lane's own count,
	// as the scalar path does: at a restitution threshold of 0 the empty
	// second point (approach 0 <= -0) made a one-point contact in a
	// two-point block a two-point impact, and the block bounce stopped
	// the bodies' centres as if they met there.
	count [lanes]int8
}

// wideParams are the per-stage constants of the wide kernels, as full
// vectors so the kernels use them as memory operands.
type wideParams struct {
	zero, one, sign     [lanes]float64
	invH, negMaxPushOut [lanes]float64
	// biasMask is all ones (solve) or all zeros (relax): ANDed with the soft
	// bias and the impulse scale, it turns the soft branch into the relax
	// branch of solveContact without a second kernel.
	biasMask                                  [lanes]float64
	flip                                      [lanes]int64 // flip[0] != 0: solve point 1 before point 0
	softBiasRate, softMassScale, softImpScale [lanes]float64
	stiffBiasRate, stiffMassScale             [lanes]float64
	stiffImpScale                             [lanes]float64
	heavyBiasRate, heavyMassScale             [lanes]float64
	heavyImpScale                             [lanes]float64
	deepOverlap, deepFrac                     [lanes]float64
}

func splat(x float64) (v [lanes]float64) {
	for l := range v {
		v[l] = x
	}
	return v
}

// setWideParams fills w with the constants of a warm start, solve
// (useBias) or relax stage.
func (s *Solver) setWideParams(w *wideParams, useBias, flip bool) {
	w.zero, w.one, w.sign = splat(0), splat(1), splat(math.Copysign(0, -1))
	w.invH, w.negMaxPushOut = splat(s.p.invH), splat(-s.p.maxPushOut)
	w.deepOverlap, w.deepFrac = splat(s.p.deepOverlap), splat(s.p.deepFrac)
	w.biasMask = splat(0)
	if useBias {
		w.biasMask = splat(math.Float64frombits(^uint64(0)))
	}
	w.flip = [lanes]int64{}
	if flip {
		w.flip[0] = 1
	}
	w.softBiasRate, w.softMassScale, w.softImpScale = splat(s.p.soft.BiasRate), splat(s.p.soft.MassScale), splat(s.p.soft.ImpulseScale)
	w.stiffBiasRate, w.stiffMassScale, w.stiffImpScale = splat(s.p.stiff.BiasRate), splat(s.p.stiff.MassScale), splat(s.p.stiff.ImpulseScale)
	w.heavyBiasRate, w.heavyMassScale, w.heavyImpScale = splat(s.p.heavy.BiasRate), splat(s.p.heavy.MassScale), splat(s.p.heavy.ImpulseScale)
}

// layoutWide lays the colours out in blocks of eight, group by group:
// colour entry c (as colorStart) owns blocks [blockStart[c],
// blockStart[c+1]), and contact k of the solver order (largeStart <= k) is
// lane wideSlot[k-largeStart]%8 of block wideSlot[k-largeStart]/8, or
// solved by the scalar kernels (the overflow) when that is -1. Static
// sides read the zero row that Solve appends after the last body. It
// prepares the padding lanes and the point count of every block, and lists
// the kinematic rows the large islands touch.
func (s *Solver) layoutWide() {
	s.dummyOff = int64(len(s.Sims)) * bodyStride
	s.blockStart = resize(s.blockStart, len(s.colorStart))
	s.wideSlot = resize(s.wideSlot, len(s.Order)-int(s.largeStart))
	nblocks := 0
	for gi := range s.groups {
		g := &s.groups[gi]
		for k := range s.wideSlot[g.overflow-s.largeStart : s.colorStart[g.colors[0]]-s.largeStart] {
			s.wideSlot[int(g.overflow-s.largeStart)+k] = -1
		}
		for c := g.colors[0]; c < g.colors[1]; c++ {
			s.blockStart[c] = int32(nblocks)
			if c+1 < g.colors[1] {
				nblocks += int(s.colorStart[c+1]-s.colorStart[c]+lanes-1) / lanes
			}
		}
	}
	s.cold = resize(s.cold, nblocks)
	s.blockPts = resize(s.blockPts, nblocks)
	for gi := range s.groups {
		g := &s.groups[gi]
		for k := g.colors[0]; k+1 < g.colors[1]; k++ {
			c0, c1 := s.colorStart[k], s.colorStart[k+1]
			b0 := s.blockStart[k]
			for c := c0; c < c1; c++ {
				s.wideSlot[c-s.largeStart] = b0*lanes + (c - c0)
			}
			for c := c0; c < c1; c += lanes {
				s.blockPts[b0+(c-c0)/lanes] = uint8(s.Links[s.Order[c]].points())
			}
		}
	}
	// Each block takes one unit for its header and one for each point.
	s.blockOff = resize(s.blockOff, nblocks)
	units := int32(0)
	for b, pts := range s.blockPts[:nblocks] {
		s.blockOff[b] = units
		units += 1 + int32(pts)
	}
	s.arena = resize(s.arena, int(units)+1) // the spare unit: see block
	for gi := range s.groups {
		g := &s.groups[gi]
		for k := g.colors[0]; k+1 < g.colors[1]; k++ {
			c0, c1 := s.colorStart[k], s.colorStart[k+1]
			if pad := (c1 - c0) % lanes; pad != 0 {
				for l := pad; l < lanes; l++ {
					s.setLane(int(s.blockStart[k+1]-1), int(l), &emptyLane, false)
				}
			}
		}
	}
	s.kinRows = append(s.kinRows[:0], s.Coloring.Kinematic...)
	slices.Sort(s.kinRows)
	s.kinRows = slices.Compact(s.kinRows)
}

// checkLanes sets badLane if a lane of part [lo, hi) of n of group g's
// blocks addresses a row outside Bodies: the kernels do not check bounds,
// and a lane left from an earlier step (SetContact not called for every
// link) could address a row that is gone. The parts are those of the
// group's link chunks (modeBoundFrame, the first job of the group), so the
// workers check the blocks before any kernel reads them, each a share near
// the lanes it prepared. Run by the caller alone over all the blocks, the
// check read two lines of every block, a tenth of them from the other
// core: 0.05 ms a step of large_pyramid on 2 workers, 0.40 of many_pyramids.
func (s *Solver) checkLanes(g *largeGroup, lo, hi int) {
	if !s.wide {
		return
	}
	n := int(g.linkChunks[1] - g.linkChunks[0])
	b0, b1 := int(s.blockStart[g.colors[0]]), int(s.blockStart[g.colors[1]-1])
	limit := uint64(len(s.Bodies)) * bodyStride
	for b := b0 + lo*(b1-b0)/n; b < b0+hi*(b1-b0)/n; b++ {
		w := s.block(b)
		for l := 0; l < lanes; l++ {
			if uint64(w.offA[l]) >= limit || uint64(w.offB[l]) >= limit {
				s.badLane.Store(true)
				return
			}
		}
	}
}

// emptyLane pads the last block of a colour: both sides static (the zero
// row), no mass, no points, so its lane applies no impulse.
var emptyLane = Contact{A: -1, B: -1}

// setLane writes the prepared contact c into lane l of block b, every field
// of the lane, so nothing of an earlier step survives. The contact of lane
// 0 also copies the block's point count (blockPts, from layoutWide) into the
// block, for the kernels: two-point contacts come first in a colour
// (BuildIslands), so a block is a one-point block exactly when its first
// contact is. Writing it here, where the block's lines are being written
// anyway, saved a cache miss per block that a separate pass in layoutWide
// paid.
func (s *Solver) setLane(b, l int, c *Contact, heavy bool) {
	w, cold := s.block(b), &s.cold[b]
	if l == 0 {
		w.points = int64(s.blockPts[b])
	}
	w.offA[l], w.maskA[l] = s.sideOffset(c.A, c.KindA)
	w.offB[l], w.maskB[l] = s.sideOffset(c.B, c.KindB)
	w.stiff[l], w.heavy[l] = 0, 0
	if c.KindA != KindDynamic || c.KindB != KindDynamic {
		w.stiff[l] = -1
	}
	if heavy {
		w.heavy[l] = -1
	}
	w.nx[l], w.ny[l] = c.Normal.X, c.Normal.Y
	w.friction[l], cold.restitution[l], cold.count[l] = c.Friction, c.Restitution, int8(c.Count)
	w.mA[l], w.iA[l], w.mB[l], w.iB[l] = c.InvMassA, c.InvIA, c.InvMassB, c.InvIB
	for j := range w.pts {
		if int32(j) < c.Count {
			s.setPoint(&w.pts[j], l, &c.Points[j])
			cold.relVel[j][l] = c.Points[j].RelativeVelocity
			continue
		}
		cold.relVel[j][l] = 0
		// A one-point block has no second point in the arena: there lies
		// the next block (see wideUnit).
		if j == 0 || s.blockPts[b] == 2 {
			s.setPoint(&w.pts[j], l, nil)
		}
	}
}

// setPoint writes point cp, or zeros for nil, into lane l of wp.
func (s *Solver) setPoint(wp *widePoint, l int, cp *ContactPoint) {
	if cp == nil {
		cp = &ContactPoint{}
	}
	wp.rAx[l], wp.rAy[l], wp.rBx[l], wp.rBy[l] = cp.RA.X, cp.RA.Y, cp.RB.X, cp.RB.Y
	wp.baseSep[l], wp.normalMass[l], wp.tangentMass[l] = cp.BaseSeparation, cp.NormalMass, cp.TangentMass
	wp.normalImpulse[l], wp.tangentImpulse[l] = cp.NormalImpulse, cp.TangentImpulse
	wp.maxNormalImpulse[l] = cp.MaxNormalImpulse
}

// sideOffset returns the row offset and write mask of one side of a contact.
func (s *Solver) sideOffset(i int32, k Kind) (int64, int8) {
	switch k {
	case KindDynamic:
		return int64(i) * bodyStride, -1
	case KindKinematic:
		return int64(i) * bodyStride, 0
	}
	return s.dummyOff, 0
}

// setKinematic writes into the kinematic rows the delta pose they have at
// elapsed into the step, exactly as solveContact computes it, so that the
// wide kernels read kinematic sides like dynamic ones. Solve calls it with
// 0 at the end (no delta; nothing reads kinematic deltas after the solve).
func (s *Solver) setKinematic(elapsed float64) {
	for _, i := range s.kinRows {
		st := &s.Bodies[i]
		st.DP = components.Vec2{X: elapsed * st.V.X, Y: elapsed * st.V.Y}
		st.DQ = components.Identity
		if !s.Sims[i].Round {
			st.DQ = components.Rot{C: 1, S: elapsed * st.W}.Normalize()
		}
	}
}

// laneContact rebuilds the contact in lane l of w, with both sides read as
// rows 0 and 1 of a two-row slice (the scalar kernels then read and write
// the lane's rows exactly as the wide kernels do) and the lane's softness
// in p.soft. Its restitution, relative velocities and own point count come
// from cold; for nil they are zero and the count is the block's (the warm
// start, solve and relax read neither, and run the block's points).
func laneContact(w *wideContact, cold *wideCold, l int, p *stepParams, base *stepParams) Contact {
	c := Contact{A: 0, B: 1, KindA: KindDynamic, KindB: KindDynamic, Count: int32(w.points),
		Normal: components.Vec2{X: w.nx[l], Y: w.ny[l]}, Friction: w.friction[l],
		InvMassA: w.mA[l], InvIA: w.iA[l], InvMassB: w.mB[l], InvIB: w.iB[l]}
	for j := range w.points { // a one-point block has no second point (wideUnit)
		wp := &w.pts[j]
		c.Points[j] = ContactPoint{RA: components.V(wp.rAx[l], wp.rAy[l]), RB: components.V(wp.rBx[l], wp.rBy[l]),
			BaseSeparation: wp.baseSep[l], NormalMass: wp.normalMass[l], TangentMass: wp.tangentMass[l],
			NormalImpulse: wp.normalImpulse[l], TangentImpulse: wp.tangentImpulse[l],
			MaxNormalImpulse: wp.maxNormalImpulse[l]}
		if cold != nil {
			c.Points[j].RelativeVelocity = cold.relVel[j][l]
		}
	}
	if cold != nil {
		c.Restitution, c.Count = cold.restitution[l], int32(cold.count[l])
	}
	*p = *base
	switch {
	case w.stiff[l] != 0:
		p.soft = base.stiff
	case w.heavy[l] != 0:
		p.soft = base.heavy
	}
	if w.heavy[l] != 0 {
		p.deepFrac = 0
	}
	return c
}

// storeLane writes the impulses of c back into lane l of w, and the lane's
// rows back into bodies where that side is dynamic.
func storeLane(w *wideContact, l int, c *Contact, pair *[2]BodyState, bodies []BodyState) {
	for j := range w.points {
		wp := &w.pts[j]
		wp.normalImpulse[l], wp.tangentImpulse[l] = c.Points[j].NormalImpulse, c.Points[j].TangentImpulse
		wp.maxNormalImpulse[l] = c.Points[j].MaxNormalImpulse
	}
	if w.maskA[l] != 0 {
		bodies[w.offA[l]/bodyStride].V, bodies[w.offA[l]/bodyStride].W = pair[0].V, pair[0].W
	}
	if w.maskB[l] != 0 {
		bodies[w.offB[l]/bodyStride].V, bodies[w.offB[l]/bodyStride].W = pair[1].V, pair[1].W
	}
}

// eachLane runs a scalar contact kernel on every lane of w: the lane's
// contact and rows are rebuilt (laneContact), the kernel runs on them, and
// the impulses and dynamic rows are written back (storeLane).
func (w *wideContact) eachLane(bodies []BodyState, base *stepParams, kernel func(c *Contact, pair []BodyState, p *stepParams)) {
	for l := 0; l < lanes; l++ {
		var lp stepParams
		c := laneContact(w, nil, l, &lp, base)
		pair := [2]BodyState{bodies[w.offA[l]/bodyStride], bodies[w.offB[l]/bodyStride]}
		kernel(&c, pair[:], &lp)
		storeLane(w, l, &c, &pair, bodies)
	}
}

// restituteWide applies restitution to the lanes that have restitution or
// a two-point impact, one by one with the scalar kernel: it runs once a
// step, and only on those contacts. The kernel is called directly, not
// through eachLane: behind a function value the lane's pair of rows would
// escape to the heap, an allocation per lane and step.
func restituteWide(first *wideContact, n int, cold []wideCold, bodies []BodyState, p *stepParams) {
	w := first
	for b := range n {
		if b > 0 {
			w = nextBlock(w)
		}
		wc := &cold[b]
		for l := 0; l < lanes; l++ {
			if !wc.impact(l, p.restitutionThreshold) {
				continue
			}
			var lp stepParams
			c := laneContact(w, wc, l, &lp, p)
			pair := [2]BodyState{bodies[w.offA[l]/bodyStride], bodies[w.offB[l]/bodyStride]}
			applyRestitution(&c, pair[:], &lp, nil)
			storeLane(w, l, &c, &pair, bodies)
		}
	}
}

// warmWideRef and solveWideRef are the wide kernels in Go: the scalar
// warmStart and solveContact run lane by lane. They are the statement of what
// wide_amd64.s computes, and its oracle in the tests (the two agree bit for
// bit). Bodies must hold the zero row at the offset the blocks use for
// static sides.
func warmWideRef(first *wideContact, n int, bodies []BodyState) {
	w := first
	for b := range n {
		if b > 0 {
			w = nextBlock(w)
		}
		w.eachLane(bodies, &stepParams{}, func(c *Contact, pair []BodyState, _ *stepParams) { warmStart(c, pair) })
	}
}

func solveWideRef(first *wideContact, n int, bodies []BodyState, prm *wideParams) {
	useBias := math.Float64bits(prm.biasMask[0]) != 0
	base := stepParams{invH: prm.invH[0], maxPushOut: -prm.negMaxPushOut[0],
		deepOverlap: prm.deepOverlap[0], deepFrac: prm.deepFrac[0],
		soft:  Softness{BiasRate: prm.softBiasRate[0], MassScale: prm.softMassScale[0], ImpulseScale: prm.softImpScale[0]},
		stiff: Softness{BiasRate: prm.stiffBiasRate[0], MassScale: prm.stiffMassScale[0], ImpulseScale: prm.stiffImpScale[0]},
		heavy: Softness{BiasRate: prm.heavyBiasRate[0], MassScale: prm.heavyMassScale[0], ImpulseScale: prm.heavyImpScale[0]}}
	flip := prm.flip[0] != 0
	w := first
	for b := range n {
		if b > 0 {
			w = nextBlock(w)
		}
		w.eachLane(bodies, &base, func(c *Contact, pair []BodyState, lp *stepParams) {
			solveContact(c, pair, lp, 0, useBias, flip)
		})
	}
}

// impact reports whether lane l of w has restitution or two points that
// approached faster than threshold (Contact.impact).
func (w *wideCold) impact(l int, threshold float64) bool {
	return w.restitution[l] != 0 || (w.count[l] == 2 && w.relVel[0][l] <= -threshold && w.relVel[1][l] <= -threshold)
}
