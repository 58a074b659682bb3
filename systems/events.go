package systems

import (
	"encoding/binary"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/narrowphase"
	"github.com/tumble2d/tumble/solver"
)

// The contact events of a tick (ecs.ContactEvents).
//
// The contact cache already tells a new contact from a continued one: the
// preparation looks every touching pair up in the previous tick's table
// (and in the contacts of the islands woken this tick) for its warm start.
// Each lookup that finds an entry marks it seen; a pair found in neither
// began this tick, and an entry nobody saw ended, unless its island fell
// asleep, which keeps it. So the events cost a byte per contact written by
// the workers that prepare them and a scan of those bytes on the caller,
// eight at a time: about a microsecond a tick for 15 000 contacts. A second
// table of pairs, or a sort of the pair lists, would repeat lookups the
// preparation makes anyway.

// Per-contact event flags (contactEvents.flags), written by the
// preparation, and for hits by the store, which reads each coloured
// contact's lane anyway: deciding them in the events stage read the lanes
// again on the caller alone, and the stage took 0.026 ms a step of tumbler
// on 2 workers.
const (
	evBegin  uint8 = 1 << iota // near now, and not last tick (no entry, or one not near)
	evFast                     // a point approached faster than HitSpeed: a hit if it pushed
	evHit                      // it pushed: a hit, at hitSpeed[k]
	evSecond                   // the hit's point is the second
	evEnd                      // near last tick, and touching but not near now
	evAway                     // touching, and near neither last tick nor now
)

// contactEvents is the bookkeeping of the tick's contact events.
type contactEvents struct {
	flags    []uint8   // per touching link: evBegin, evFast, evHit, evSecond
	hitSpeed []float64 // per touching link, where evHit: its approach speed
	// prevSeen and wokenSeen mark, per entry of the previous tick's cache
	// and of the woken contacts, that a touching pair of this tick found it.
	prevSeen, wokenSeen []uint8
	// ended lists the contacts that ended this tick, in the order of the
	// previous tick's entries, then of the woken contacts, then of the
	// sleeping islands that lost all their members.
	ended []ecs.ContactEnd
}

// beginPrepare sizes the marks for the preparation of n touching links,
// with the previous tick's cache prev and the woken contacts woken.
func (ev *contactEvents) beginPrepare(n int, prev, woken *contactCache) {
	ev.flags = resize(ev.flags, n)
	ev.hitSpeed = resize(ev.hitSpeed, n)
	ev.prevSeen = resize(ev.prevSeen, len(prev.entries))
	clear(ev.prevSeen)
	ev.wokenSeen = resize(ev.wokenSeen, len(woken.entries))
	clear(ev.wokenSeen)
}

// lookUp returns the previous tick's contact of the pair (a, b), from the
// previous tick's table or else from the woken contacts, for its warm
// start and its events, or nil if it had none. A pair's order never
// changes (collidePair orders it by entity ID). Workers call it for
// distinct pairs, so each entry is marked by at most one.
func (ev *contactEvents) lookUp(a, b arche.Entity, prev, woken *contactCache) *cachedContact {
	if k := prev.index(a, b); k >= 0 {
		ev.prevSeen[k] = 1
		return &prev.entries[k]
	}
	if k := woken.index(a, b); k >= 0 {
		ev.wokenSeen[k] = 1
		return &woken.entries[k]
	}
	return nil
}

// each calls f, in order, with each index of b whose byte is not skip,
// passing over eight bytes of skip at a time: the marks and flags are
// mostly one value, and the scans run on the caller alone.
func each(b []uint8, skip uint8, f func(k int)) {
	word := uint64(skip) * 0x0101010101010101
	for k := 0; k < len(b); {
		if k+8 <= len(b) && binary.LittleEndian.Uint64(b[k:]) == word {
			k += 8
			continue
		}
		if b[k] != skip {
			f(k)
		}
		k++
	}
}

// collectEnded lists the contacts that ended: the previous tick's entries
// that no pair of this tick found, unless a body of the pair sleeps (its
// island keeps the contact), and the woken contacts that no pair found and
// that the previous tick's table does not hold (those it holds were
// reported from there), and the contacts of the sleeping islands whose
// members were all removed. It runs after the preparation and before the sleep
// stage, which must not yet count this tick's new sleepers.
func (p *Physics) collectEnded(prev, woken *contactCache) {
	ev := &p.ev
	each(ev.prevSeen, 1, func(k int) {
		e := &prev.entries[k]
		if !e.near || p.sleep.inSet(e.a) || p.sleep.inSet(e.b) {
			return
		}
		ev.ended = append(ev.ended, ecs.ContactEnd{A: e.a, B: e.b})
	})
	each(ev.wokenSeen, 1, func(k int) {
		e := &woken.entries[k]
		if !e.near || prev.index(e.a, e.b) >= 0 {
			return
		}
		ev.ended = append(ev.ended, ecs.ContactEnd{A: e.a, B: e.b})
	})
	ev.ended = append(ev.ended, p.sleep.ended...)
	p.sleep.ended = p.sleep.ended[:0]
}

// publishEvents fills the ContactEvents resource: the contacts that began
// and hit, in link order, and those that ended.
func (p *Physics) publishEvents() {
	out := p.events.Get()
	out.Begin, out.Hit = out.Begin[:0], out.Hit[:0]
	out.End = append(out.End[:0], p.ev.ended...)
	p.ev.ended = p.ev.ended[:0]
	each(p.ev.flags, 0, func(k int) { p.contactEvent(out, k, p.ev.flags[k]) })
}

// decideHit turns the flag of touching link k, whose manifold is m and
// which evFast marks, into a hit or none, after the solve: as Box2D v3
// reports hits (b2SolverStep), the fastest point above threshold
// (Config.HitSpeed) that pushed. A hit makes the pair a contact of the
// events, near or not (Physics.near): its points pushed, so it met (a
// third body can drive a pair moving apart back within the tick). It
// reports whether it found a hit.
func (ev *contactEvents) decideHit(k int, m *narrowphase.Manifold, s *solver.Solver, threshold float64) bool {
	n, vel, pushed := s.Approach(k)
	best, speed := -1, threshold
	for j := range min(int(n), m.Count) {
		if -vel[j] > speed && pushed[j] > 0 {
			best, speed = j, -vel[j]
		}
	}
	f := ev.flags[k] &^ evFast
	if best >= 0 {
		f |= evHit
		if best == 1 {
			f |= evSecond
		}
		if f&evAway != 0 {
			f |= evBegin
		}
		f &^= evEnd | evAway
		ev.hitSpeed[k] = speed
	}
	ev.flags[k] = f
	return best >= 0
}

// contactEvent adds the events of touching link k, flagged f, to out.
func (p *Physics) contactEvent(out *ecs.ContactEvents, k int, f uint8) {
	i := p.touching[k]
	ents, m := &p.pairEnts[i], &p.manifolds[i]
	if f&evEnd != 0 {
		out.End = append(out.End, ecs.ContactEnd{A: ents[0], B: ents[1]})
	}
	if f&evBegin != 0 {
		b := ecs.ContactBegin{A: ents[0], B: ents[1], Normal: m.Normal, Count: m.Count}
		for j := range m.Count {
			b.Points[j] = m.Points[j].P
		}
		out.Begin = append(out.Begin, b)
	}
	if f&evHit != 0 {
		j := 0
		if f&evSecond != 0 {
			j = 1
		}
		out.Hit = append(out.Hit, ecs.ContactHit{A: ents[0], B: ents[1], Point: m.Points[j].P, Normal: m.Normal, Speed: p.ev.hitSpeed[k]})
	}
}
