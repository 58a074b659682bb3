package systems

import (
	"sort"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/broadphase"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/narrowphase"
	"github.com/tumble2d/tumble/solver"
)

// broadChunk is the number of moving bodies per broad-phase block. Blocks
// write their own pair buffers, which the narrow phase reads in block order
// (Physics.pairStart): the grid returns each block's pairs sorted, so the
// whole list is sorted and the same for any worker count. Copying the
// buffers into one list took the caller 0.017 ms a step of large_pyramid and
// 0.075 of many_pyramids on 2 workers (reading the other core's blocks),
// and kept a second copy of every pair; reading the blocks in place is
// 0.4 % faster a step on both (in one process, 60 turns each way).
//
// The workers take the blocks first come first served, so a scene of few
// blocks ends its broad phase unevenly: tumbler's 2 029 bodies were 4 blocks
// of 512. In 256s (8 blocks) its broad-phase stage on 2 workers went from
// 0.268 to 0.253 ms and its step from 1.552 to 1.532 (medians of 16
// alternating runs); on 1 worker, and for large_pyramid, circle_rain and
// many_pyramids on 2, nothing changed beyond the noise. Which block holds a
// body changes no pair, so the checksums stay.
const broadChunk = 256

type broadTask struct{ ph *Physics }

// Run queries the grid for the moving bodies of chunks [lo, hi), and marks
// in nearFrozen those with a frozen candidate. A block is a whole number of
// the bitset's words (broadChunk is a multiple of 64), so no two blocks
// write the same word.
func (t *broadTask) Run(lo, hi, _ int) {
	p := t.ph
	n := len(p.aabbs)
	for c := lo; c < hi; c++ {
		p.pairBufs[c] = p.grid.PairsRangeMarked(c*broadChunk, min((c+1)*broadChunk, n), p.pairBufs[c][:0], p.nearFrozen)
	}
}

func (p *Physics) broadPhase() {
	p.pool.wakeParked() // they wake while the grid is rebuilt
	p.grid.UpdateReach(p.aabbs, p.reach)
	chunks := (len(p.aabbs) + broadChunk - 1) / broadChunk
	p.nearFrozen = resize(p.nearFrozen, (len(p.aabbs)+63)/64)
	for len(p.pairBufs) < chunks {
		p.pairBufs = append(p.pairBufs, nil)
	}
	p.pool.For(chunks, 1, &p.broadTask)
	p.pairStart = append(p.pairStart[:0], 0)
	n := 0
	for c := 0; c < chunks; c++ {
		n += len(p.pairBufs[c])
		p.pairStart = append(p.pairStart, n)
	}
}

// numPairs returns the number of candidate pairs of the tick's broad phase.
func (p *Physics) numPairs() int {
	if len(p.pairStart) == 0 {
		return 0
	}
	return p.pairStart[len(p.pairStart)-1]
}

// pairBlock returns the broad-phase block holding pair i.
func (p *Physics) pairBlock(i int) int {
	return sort.Search(len(p.pairStart)-1, func(c int) bool { return p.pairStart[c+1] > i })
}

// Pair flags written by the narrow phase; the fold reads them only in blocks
// that touched a sleeping body.
const (
	pairNone     uint8 = 0 // no contact
	pairTouching uint8 = 1 // a contact to solve
	pairWakeA    uint8 = 2 // body A sleeps and was touched: wake it next tick
	pairWakeB    uint8 = 3 // body B sleeps and was touched
	// pairWakeNow is or'ed into pairWakeA or pairWakeB when the moving
	// body can go into the sleeper in this tick: the sleeper must be
	// simulated in this tick, not the next (see Physics.Update).
	pairWakeNow uint8 = 4
)

// proxy returns the collision proxy of body i of a candidate pair: a moving
// row below len(p.ents), else a frozen row.
func (p *Physics) proxy(i int32) *bodyProxy {
	if n := int32(len(p.proxies)); i < n {
		return &p.proxies[i]
	}
	return &p.frozen.proxies[i-int32(len(p.proxies))]
}

// entity and material read what a proxy leaves out: only the pairs whose
// manifold has points need them, so the other candidates never touch these
// rows.
func (p *Physics) entity(i int32) arche.Entity {
	if n := int32(len(p.ents)); i < n {
		return p.ents[i]
	}
	return p.frozen.ents[i-int32(len(p.ents))]
}

func (p *Physics) material(i int32) *components.Material {
	if n := int32(len(p.mats)); i < n {
		return &p.mats[i]
	}
	return &p.frozen.mats[i-int32(len(p.mats))]
}

// mayTouch reports whether bodies i and j (rows, as in a candidate pair)
// may collide: neither is a sensor, and their filters let them.
func (p *Physics) mayTouch(i, j int32) bool {
	return touchable(p.proxy(i).rules|p.proxy(j).rules, p.material(i), p.material(j))
}

// touchable reports whether two bodies of materials ma and mb, whose
// proxies' rules or'ed together are rules, may collide.
func touchable(rules uint8, ma, mb *components.Material) bool {
	return rules == 0 || rules&ruleSensor == 0 && ma.Filter.Collides(mb.Filter)
}

// relMotion returns the velocity of body j relative to body i and the sum of
// their spins, the largest speed at which rotation moves a point of each
// shape. Frozen bodies do not move.
func (p *Physics) relMotion(i, j int32) (dv components.Vec2, spin float64) {
	n := int32(len(p.motion))
	var vi, vj components.Vec2
	if i < n {
		vi, spin = p.motion[i].v, spin+p.motion[i].spin
	}
	if j < n {
		vj, spin = p.motion[j].v, spin+p.motion[j].spin
	}
	return vj.Sub(vi), spin
}

// approachSpeed bounds how fast body j's shape can close on body i's along
// n, the normal from i to j, given their relative motion dv and spin
// (relMotion): the closing speed of the centres along n plus both spins.
// Unlike the closing speed of collidePair it tells a body moving away, or
// past, from one coming at it.
func approachSpeed(dv components.Vec2, spin float64, n components.Vec2) float64 {
	return spin - dv.Dot(n)
}

// reachesThisTick reports whether the box of moving body i or j, grown by
// this tick's motion, overlaps the box of the other, a frozen body.
func (p *Physics) reachesThisTick(i, j int32) bool {
	if i > j {
		i, j = j, i
	}
	nm := int32(len(p.aabbs))
	return i < nm && j >= nm && p.aabbs[i].Overlaps(p.frozen.aabbs[j-nm])
}

// row returns the solver row of body i, or -1 for a frozen body.
func (p *Physics) row(i int32) int32 {
	if i < int32(len(p.ents)) {
		return i
	}
	return -1
}

type narrowTask struct{ ph *Physics }

// Run collides pairs [lo, hi). It reads the rows and writes only slot i of
// the per-pair outputs, and slots [lo, hi) of touching and the links: the
// block's touching pairs, packed at its front (see narrowPhase).
func (t *narrowTask) Run(lo, hi, _ int) {
	p := t.ph
	n, flags := lo, uint8(0)
	ahead := p.ahead()
	c := p.pairBlock(lo)
	for i := lo; i < hi; i++ {
		if ahead && (i-lo)%aheadRun == 0 {
			p.prefetchPairs(i+aheadRows, n+aheadRows, hi)
		}
		for i >= p.pairStart[c+1] {
			c++
		}
		f := p.collidePair(i, p.pairBufs[c][i-p.pairStart[c]])
		if f == pairTouching {
			p.touching[n] = int32(i)
			p.s.Links[n] = p.pairInfo[i].link
			n++
		}
		flags |= f
	}
	p.blockEnd[lo], p.blockTouching[lo] = int32(hi), int32(n-lo)
	p.blockWakes[lo] = flags&pairWakeA != 0 // pairWakeB has the bit too
}

func (p *Physics) collidePair(i int, pr broadphase.Pair) uint8 {
	ia, ib := pr.A, pr.B
	a, b := p.proxy(ia), p.proxy(ib)
	// Order the bodies by entity ID, so that feature ids, and so warm
	// starting, do not depend on which body is a moving or frozen row this
	// tick.
	if a.id > b.id {
		a, b, ia, ib = b, a, ib, ia
	}
	p.pairFlags[i] = pairNone
	if a.kind != solver.KindDynamic && b.kind != solver.KindDynamic && !a.sleeping && !b.sleeping {
		return pairNone // kinematic or static against kinematic or static: nothing moves
	}
	if p.joints.apart.has(a.id, b.id) {
		return pairNone // joined, and not to collide (JointSpec.CollideConnected)
	}
	if r := a.rules | b.rules; r != 0 && !touchable(r, p.material(ia), p.material(ib)) {
		return pairNone // a sensor, or filters that keep them apart (components.Filter)
	}
	// The closing speed bounds how fast any point of one body can approach
	// any point of the other: |vb - va| + ra |wa| + rb |wb|, with r the
	// largest distance from a centre to its shape. The bound is on the
	// relative motion, not the sum of the two speeds: bodies falling side by
	// side in a rain, or riding the same platform, close at the speed of
	// their difference, and summing their speeds made every such neighbour a
	// speculative contact (two per body in circle_rain before landing).
	dv, spin := p.relMotion(ia, ib)
	closing := dv.Len() + spin
	margin := p.cfg.SpeculativeDistance + p.cfg.Dt*closing
	if a.sleeping || b.sleeping {
		margin += p.cfg.Dt * closing
	}
	// Only pairs with points keep their manifold (the others' slots are
	// never read): most candidates of a pile do not touch, and writing 88
	// bytes for each was a fifth of the narrow phase's memory traffic.
	var mf narrowphase.Manifold
	narrowphase.CollideInto(&mf, a.shapeOf(), a.xf, b.shapeOf(), b.xf, margin)
	if mf.Count == 0 {
		return pairNone
	}
	near := p.near(&mf, dv, spin)
	// The lever arms are taken from centreA and centreB; an aimed contact
	// with a circle has its own point on each body (narrowphase.AimCircles,
	// AimBoxCircle, whose normals point from the box to the circle), and an
	// aimed box contact takes B's arms from where B is at the aimed time
	// (narrowphase.AimBoxes).
	centreA, centreB := a.xf.P, b.xf.P
	if a.shape == components.ShapeCircle || b.shape == components.ShapeCircle {
		var offA, offB components.Vec2
		switch {
		case a.shape == components.ShapeCircle && b.shape == components.ShapeCircle:
			offA, offB = narrowphase.AimCircles(&mf, a.half.X, a.xf.P, b.half.X, b.xf.P, dv, p.cfg.Dt)
		case b.shape == components.ShapeCircle:
			offA, offB = narrowphase.AimBoxCircle(&mf, a.half, a.xf, b.half.X, b.xf.P, dv, p.cfg.Dt)
		default:
			mf.Normal = mf.Normal.Neg()
			offB, offA = narrowphase.AimBoxCircle(&mf, b.half, b.xf, a.half.X, a.xf.P, dv.Neg(), p.cfg.Dt)
			mf.Normal = mf.Normal.Neg()
		}
		centreA, centreB = centreA.Sub(offA), centreB.Sub(offB)
	} else if mf.Points[0].Separation > 0 || mf.Count == 2 && mf.Points[1].Separation > 0 {
		// AimBoxes follows the translation only. Where the spin moves the
		// corners as fast as half the translation, the impact it finds is
		// not the one that comes: a 0.05 x 2 m box at 20 m/s turning at 35
		// rad/s sank 5.5 cm into a resting box, where the start manifold
		// held it 2.7 cm off, and over 400 random spinning pairs overlaps
		// past 5 cm went from 4 to 19 (a review's probes).
		// The horizon is the step and one substep: the solver's last relax
		// predicts a substep past the step, and a pass whose closest
		// approach fell there, aimed within the step, was kicked.
		if spin < 0.5*dv.Len() {
			horizon := p.cfg.Dt * (1 + 1/float64(p.cfg.SubSteps))
			centreB = centreB.Sub(narrowphase.AimBoxes(&mf, a.half, a.xf, b.half, b.xf, dv, horizon, margin))
		}
	}
	p.manifolds[i] = mf
	p.pairEnts[i] = [2]arche.Entity{p.entity(ia), p.entity(ib)}
	if a.sleeping || b.sleeping {
		// A dynamic body, or a kinematic body that moves, wakes a sleeping
		// body it touches (a kinematic body at rest is a frozen row, like
		// ground).
		if a.sleeping && (b.kind == solver.KindDynamic || b.kind == solver.KindKinematic && b.speed > 0) {
			p.pairFlags[i] = pairWakeA
		} else if b.sleeping && (a.kind == solver.KindDynamic || a.kind == solver.KindKinematic && a.speed > 0) {
			p.pairFlags[i] = pairWakeB
		}
		// The doubled margin above finds the sleeper a tick early for a
		// body that was moving towards it. One that appeared, was moved
		// or was sped up next to it can go into it in this tick, by more
		// than the linear slop, and must be woken now: when its box grown
		// by this tick's motion reaches the sleeper's, and the gap closes
		// along the normal by more than it is wide. A body merely touching
		// the sleeper (a neighbour woken at rest) wakes it next tick, so a
		// wake spreads through a touching grid one ring a tick, as before.
		// A moving kinematic body wakes what it reaches now, whichever way
		// it goes: a box asleep on a platform set moving down must fall
		// with it, not hang in the air for a tick.
		if p.pairFlags[i] != pairNone && p.reachesThisTick(ia, ib) && (a.kind == solver.KindKinematic ||
			b.kind == solver.KindKinematic || minSeparation(&mf)+narrowphase.LinearSlop < p.cfg.Dt*approachSpeed(dv, spin, mf.Normal)) {
			p.pairFlags[i] |= pairWakeNow
		}
		return p.pairFlags[i]
	}
	ma, mb := p.material(ia), p.material(ib)
	p.pairFlags[i] = pairTouching
	pi := &p.pairInfo[i] // field by field, see storeTask.Run
	pi.link.A, pi.link.B = p.row(ia), p.row(ib)
	pi.link.KindA, pi.link.KindB, pi.link.Points = a.kind, b.kind, uint8(mf.Count)
	pi.friction = p.cfg.FrictionMix.Mix(ma.Friction, mb.Friction)
	pi.restitution = p.cfg.RestitutionMix.Mix(ma.Restitution, mb.Restitution)
	pi.centerA, pi.centerB = centreA, centreB
	pi.near = near
	return pairTouching
}

// near reports whether the gap of manifold m (its normal from body A to B)
// is within the speculative distance, or closes within this tick at the
// bodies' approach speed along the normal (approachSpeed, from their
// relative motion dv and spin): a contact of the events (ecs.ContactEvents)
// from its first such tick to its first tick without. The solver also keeps
// the points of pairs that are not near: the manifold's margin grows with
// the closing speed, whatever its direction, so that a pair moving apart
// that a third body drives back within the tick still meets its contact
// (dropped, a random pile of 200 bodies threw one at 649 m/s). Reported as
// contacts, those made a ball thrown up at 8 m/s from 2 cm above the ground
// begin a contact with it and end it the next tick, and a body leaving a
// wall at 200 m/s begin one 4.3 m from it (a review's probes); Box2D v3
// keeps points within its speculative distance only.
func (p *Physics) near(m *narrowphase.Manifold, dv components.Vec2, spin float64) bool {
	gap := minSeparation(m) - p.cfg.SpeculativeDistance
	return gap <= 0 || gap <= p.cfg.Dt*approachSpeed(dv, spin, m.Normal)
}

// minSeparation returns the smallest separation of m's points (m has one at
// least).
func minSeparation(m *narrowphase.Manifold) float64 {
	d := m.Points[0].Separation
	if m.Count > 1 {
		d = min(d, m.Points[1].Separation)
	}
	return d
}

// pairInfo is what the fold and the contact preparation need of a touching
// pair besides its manifold, kept by the narrow phase so that neither has to
// look the two bodies up again.
type pairInfo struct {
	link solver.Link
	// near marks a contact of the events (Physics.near); it lies in the
	// link's padding.
	near                  bool
	friction, restitution float64
	// The points the lever arms are measured from: the body centres, or,
	// for an aimed circle contact, each shifted so that the arm ends at the
	// circle's own point, and for an aimed box contact B's centre at the
	// aimed time (see collidePair).
	centerA, centerB components.Vec2
}

// narrowPhase collides all candidate pairs in parallel, then folds the
// blocks in pair order: the touching contacts become the solver's links, and
// the sleeping bodies touched are woken next tick.
//
// Each block packs its touching pairs and their links at the front of its
// own range of touching and Links, so the serial fold only moves the packed
// runs down, in block order (the same list for any split into blocks), and
// looks at the flags only of blocks that touched a sleeping body. Scanning
// every pair's flag serially took 0.05 ms a step on tumbler (10 000 pairs),
// a sixth of what the second worker leaves to the caller.
//
// The split is static, as for prepareContacts: a worker collides the same
// stretch of the pair list every tick, so the per-pair slots it writes stay
// in its core's cache, and the links it packs are mostly those it then
// prepares. Handed out first come first served (blocks of at least 64
// pairs), the two workers' blocks interleaved and changed from tick to tick.
// With cores 1 us apart (round trip), on 2 workers, the narrow phase of
// large_pyramid took 1.03-1.06 ms against 0.73-0.82 static, and its step
// 5.19-5.34 against 4.64-5.06 (alternating runs); the other scenes were
// equal or faster.
func (p *Physics) narrowPhase() {
	n := p.numPairs()
	p.manifolds, p.pairFlags = resize(p.manifolds, n), resize(p.pairFlags, n)
	p.pairEnts, p.pairInfo = resize(p.pairEnts, n), resize(p.pairInfo, n)
	p.touching, p.s.Links = resize(p.touching, n), resize(p.s.Links, n)
	p.blockEnd, p.blockTouching = resize(p.blockEnd, n), resize(p.blockTouching, n)
	p.blockWakes = resize(p.blockWakes, n)
	p.pool.run(n, 0, &p.narrowTask, &p.narrowSplit)
	m := 0
	for lo := 0; lo < n; {
		hi, c := int(p.blockEnd[lo]), int(p.blockTouching[lo])
		copy(p.touching[m:], p.touching[lo:lo+c])
		copy(p.s.Links[m:], p.s.Links[lo:lo+c])
		m += c
		if p.blockWakes[lo] {
			for i := lo; i < hi; i++ {
				f := p.pairFlags[i]
				var e arche.Entity
				switch f &^ pairWakeNow {
				case pairWakeA:
					e = p.pairEnts[i][0]
				case pairWakeB:
					e = p.pairEnts[i][1]
				default:
					continue
				}
				if f&pairWakeNow != 0 {
					p.sleep.urgent = append(p.sleep.urgent, e)
				} else {
					p.sleep.pending = append(p.sleep.pending, e)
				}
			}
		}
		lo = hi
	}
	p.touching, p.s.Links = p.touching[:m], p.s.Links[:m]
}

// cacheResetTask turns the contact caches over, so that cache[1-cur] holds
// the last tick's, and empties cache[cur] for this tick's links: sized here,
// not in storeContacts, as the preparation writes each entry's inverse mass.
// It is the islands stage's Beside job (solver.Solver.Beside): the 128 KB of
// tumbler's slots are cleared by the worker that would wait for the islands,
// not by the caller alone in the preparation. No result depends on where.
type cacheResetTask struct{ ph *Physics }

func (t *cacheResetTask) Run(_, _, _ int) {
	p := t.ph
	p.cur = 1 - p.cur
	p.cache[p.cur].reset(len(p.touching))
}

type prepareTask struct{ ph *Physics }

// Run prepares the contact constraints of links [lo, hi), each into its
// place in the solver order: mixed materials, warm-start impulses from the
// previous tick's cache (by feature id) and the effective masses. Going in
// link order reads the per-pair rows front to back and the bodies and cache
// slots in body order; going in solver order (colour by colour) made every
// read a cache miss, and this task as slow as the whole coloured solve on
// many_pyramids.
func (t *prepareTask) Run(lo, hi, _ int) {
	p := t.ph
	prev, cur := &p.cache[1-p.cur], &p.cache[p.cur]
	ahead := p.ahead()
	for k := lo; k < hi; k++ {
		if ahead && (k-lo)%aheadRun == 0 {
			prefetchEntries(cur.entries, k+aheadRows, hi)
		}
		i := int(p.touching[k])
		pi := &p.pairInfo[i]
		l := pi.link
		m := &p.manifolds[i]
		// Built on the stack and stored once: the coloured contacts go
		// straight into their lanes of the solver's wide blocks.
		c := &solver.Contact{A: l.A, B: l.B, KindA: l.KindA, KindB: l.KindB, Count: int32(m.Count),
			Normal: m.Normal, Friction: pi.friction, Restitution: pi.restitution}
		if l.KindA == solver.KindDynamic {
			c.InvMassA, c.InvIA = p.s.Sims[l.A].InvMass, p.s.Sims[l.A].InvInertia
		} else if l.KindA == solver.KindKinematic {
			c.RoundA = p.s.Sims[l.A].Round
		}
		if l.KindB == solver.KindDynamic {
			c.InvMassB, c.InvIB = p.s.Sims[l.B].InvMass, p.s.Sims[l.B].InvInertia
		} else if l.KindB == solver.KindKinematic {
			c.RoundB = p.s.Sims[l.B].Round
		}
		ents := &p.pairEnts[i]
		old := p.ev.lookUp(ents[0], ents[1], prev, &p.wokenCache)
		// An impulse that changes the bodies' relative velocity by dv is
		// dv/(1/mA + 1/mB) along the line of centres: when the game changes
		// a mass (ecs.SetMass), last tick's impulses are scaled by the
		// change of that sum, so that they ask the same of the new bodies.
		// Warm-started as they were, a body whose mass was divided by 1 000
		// on top of a stack was thrown off at 9 m/s, and one of 9 000 kg made
		// 0.005 kg inside another left at 2 561 m/s.
		// Unchanged masses give the same key and no scaling. An impulse
		// that is not finite after the scaling (a ratio beyond float64, from
		// a sum that overflowed or masses 1e300 apart, or a NaN in the cache)
		// starts its point cold: a cold start only converges more slowly.
		invMass := massKey(c.InvMassA + c.InvMassB)
		cur.entries[k].invMass, cur.entries[k].near = invMass, pi.near
		scale := 1.0
		if old != nil && old.invMass != invMass {
			scale = massOf(old.invMass) / massOf(invMass)
		}
		for j := 0; j < m.Count; j++ {
			mp := &m.Points[j]
			var pn, pt float64
			if old != nil {
				for q := int16(0); q < old.count; q++ {
					if old.ids[q] == mp.ID {
						pn, pt = scale*old.normal[q], scale*old.tangent[q]
						if pn*0+pt*0 != 0 {
							pn, pt = 0, 0
						}
						break
					}
				}
			}
			c.SetPoint(j, mp.P, mp.Separation, pn, pt)
		}
		c.Prepare(p.s.Bodies, pi.centerA, pi.centerB)
		if c.Restitution != 0 {
			c.AimRestitution(p.freeAccel(l.B, l.KindB).Sub(p.freeAccel(l.A, l.KindA)), p.cfg.Dt, p.cfg.RestitutionThreshold)
		}
		var f uint8
		switch was := old != nil && old.near; {
		case pi.near && !was:
			f = evBegin
		case was && !pi.near:
			f = evEnd
		case !was && !pi.near:
			f = evAway
		}
		if hit := -p.cfg.HitSpeed; c.Points[0].RelativeVelocity < hit || c.Count == 2 && c.Points[1].RelativeVelocity < hit {
			f |= evFast
		}
		p.ev.flags[k] = f
		p.s.SetContact(k, c)
	}
}

// freeAccel returns the acceleration the step gives row i without contacts:
// gravity and the applied force, for a dynamic body; none otherwise.
func (p *Physics) freeAccel(i int32, k solver.Kind) components.Vec2 {
	if k != solver.KindDynamic {
		return components.Vec2{}
	}
	return p.s.Sims[i].FreeAccel(p.params.Gravity)
}

// prepareContacts prepares the contact of every link (touching pair), in
// parallel, and stores each at its place in the solver order.
//
// The split is static: worker w prepares slice w of the links, and the
// links, like the contacts of each colour, are in body-row order, so a
// worker writes mostly the lanes it then solves, and store reads them back
// on the same core. Handed out first come first served, half the lanes
// (18 cache lines a block) crossed between the cores every step. On a host
// whose cores answer each other in 1 us (round trip; 200 ns on others),
// large_pyramid ran 2-4 % faster on 2 workers this way, tumbler and
// circle_rain 1-2 %; at 200 ns the two were equal.
func (p *Physics) prepareContacts() {
	// The cache of this tick was emptied by cacheResetTask, in the islands
	// stage.
	woken := p.sleep.woken
	if len(woken) > 0 {
		wc := &p.wokenCache
		wc.reset(len(woken))
		copy(wc.entries, woken)
		for k := range woken {
			wc.insert(k, false)
		}
	}
	prev := &p.cache[1-p.cur]
	p.ev.beginPrepare(len(p.touching), prev, &p.wokenCache)
	p.pool.run(len(p.touching), 0, &p.prepareTask, &p.prepareSplit)
	p.collectEnded(prev, &p.wokenCache)
	p.wokenCache.entries = p.wokenCache.entries[:0]
	p.sleep.woken = woken[:0]
}

// storeContacts keeps this tick's impulses, by entity pair and feature id,
// for warm starting the next tick.
func (p *Physics) storeContacts() {
	for w := range p.storePoints {
		p.storePoints[w].n = 0
	}
	p.pool.run(len(p.touching), 0, &p.storeTask, &p.storeSplit) // static, as prepare
	p.points = 0
	for w := range p.storePoints {
		p.points += p.storePoints[w].n
	}
}

type storeTask struct{ ph *Physics }

// Run fills the cache entries of links [lo, hi), in link order for the
// reason given at prepareTask.Run.
//
// The hot per-pair records (cachedContact here, pairInfo, and the solver's
// ContactPoint) are written one field at a time, not as composite literals.
// The compiler builds a literal in a temporary on the stack, with stores of
// each field's width, then copies it with 16-byte loads, which cannot be
// forwarded from two narrower stores still in the store buffer: each copy
// waited for its stores to retire. Writing the fields in place took
// 0.1-0.3 ms a step off large_pyramid's solve stage on one worker.
func (t *storeTask) Run(lo, hi, w int) {
	p := t.ph
	cc := &p.cache[p.cur]
	entries := cc.entries
	points, shared := 0, p.pool.Workers() > 1
	ahead := p.ahead()
	for k := lo; k < hi; k++ {
		if ahead && (k-lo)%aheadRun == 0 {
			prefetchEntries(entries, k+aheadRows, hi)
		}
		count, normal, tangent := p.s.Impulses(k)
		i := p.touching[k]
		ents, m := &p.pairEnts[i], &p.manifolds[i]
		// Both points: a missing second point has zero id and impulses.
		e := &entries[k]
		e.a, e.b, e.count = ents[0], ents[1], int16(count)
		e.ids[0], e.normal[0], e.tangent[0] = m.Points[0].ID, normal[0], tangent[0]
		e.ids[1], e.normal[1], e.tangent[1] = m.Points[1].ID, normal[1], tangent[1]
		cc.insert(k, shared)
		points += int(count)
		if p.ev.flags[k]&evFast != 0 && p.ev.decideHit(k, m, &p.s, p.cfg.HitSpeed) {
			e.near = true
		}
	}
	p.storePoints[w].n += points
}
