package systems

import (
	"slices"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/solver"
)

// sleepRec is the sleep bookkeeping of one entity ID.
type sleepRec struct {
	gen  uint32  // entity generation the record belongs to
	rest float32 // seconds the body has been resting
	base float32 // its speed when that rest began
	set  uint32  // sleeping island it belongs to, 0 for none
}

// sleeper decides which islands fall asleep and wakes them again. A sleeping
// island is remembered as a set of entities, so that touching one member
// wakes the whole island in one tick, as in Box2D v3 (solver_set.c).
type sleeper struct {
	recs    []sleepRec // by entity ID
	sets    map[uint32][]arche.Entity
	members int // entities in all sets
	broken  []uint32
	nextSet uint32
	pending []arche.Entity // touched by an awake body last tick: wake next tick
	wakeNow []arche.Entity
	toSleep []arche.Entity
	spare   [][]arche.Entity // member lists of woken sets, kept for reuse
}

// drop forgets sleeping set set and keeps its member list for the next
// island that falls asleep, so that sleeping and waking make no garbage.
func (s *sleeper) drop(set uint32) {
	members, ok := s.sets[set]
	if !ok {
		return
	}
	s.members -= len(members)
	delete(s.sets, set)
	s.spare = append(s.spare, members[:0])
}

// list returns an empty member list with room for n entities.
func (s *sleeper) list(n int) []arche.Entity {
	if k := len(s.spare); k > 0 {
		l := s.spare[k-1]
		s.spare = s.spare[:k-1]
		return slices.Grow(l, n)
	}
	return make([]arche.Entity, 0, n)
}

func (s *sleeper) init() {
	s.sets = make(map[uint32][]arche.Entity)
	s.nextSet = 1
}

func (s *sleeper) rec(e arche.Entity) *sleepRec {
	id := int(e.ID())
	if id >= len(s.recs) {
		s.recs = append(s.recs, make([]sleepRec, id+1-len(s.recs)+len(s.recs)/2)...)
	}
	r := &s.recs[id]
	if r.gen != e.Generation() {
		*r = sleepRec{gen: e.Generation()}
	}
	return r
}

// staleSet reports whether awake body e still belongs to a sleeping island:
// the game woke it alone, so the rest of the island must wake too.
func (s *sleeper) staleSet(e arche.Entity) bool {
	id := int(e.ID())
	return id < len(s.recs) && s.recs[id].set != 0 && s.recs[id].gen == e.Generation()
}

// wake removes the Sleeping tag from the given bodies and from every member
// of their sleeping islands. Must run with no query open.
func (s *sleeper) wake(w *arche.World, list []arche.Entity, sleepingIDs []arche.ID) {
	for _, e := range list {
		set := uint32(0)
		if w.Alive(e) {
			set = s.rec(e).set
		}
		s.wakeOne(w, e, sleepingIDs)
		if members, ok := s.sets[set]; ok && set != 0 {
			for _, m := range members {
				s.wakeOne(w, m, sleepingIDs)
			}
			s.drop(set)
		}
	}
}

// wakeOne removes the Sleeping tag from e; sleepingIDs is the tag's ID as a
// kept argument list (see Physics.sleepingIDs).
func (s *sleeper) wakeOne(w *arche.World, e arche.Entity, sleepingIDs []arche.ID) {
	if !w.Alive(e) {
		return
	}
	if w.Has(e, sleepingIDs[0]) {
		w.Remove(e, sleepingIDs...)
	}
	r := s.rec(e)
	r.rest, r.set = 0, 0
}

// brokenSets appends to dst one live member of every sleeping set that lost
// a member (removed entity, removed body, or woken alone): the rest of the
// island may have rested on it, and waking that member wakes the set. A set
// with no live member left is dropped. Called only when the gather saw fewer
// set members than were put to sleep, so its O(sleeping) scan is rare.
//
// The sets are visited in the order they fell asleep, not in map order: the
// order of the wakes is the order of the woken bodies in arche's storage,
// so of the solver's rows, and must not change from run to run.
func (s *sleeper) brokenSets(w *arche.World, sleepingID arche.ID, dst []arche.Entity) []arche.Entity {
	s.broken = s.broken[:0]
	for set, members := range s.sets {
		for _, m := range members {
			if !ecs.IsBody(w, m) || !w.Has(m, sleepingID) {
				s.broken = append(s.broken, set)
				break
			}
		}
	}
	slices.Sort(s.broken)
	for _, set := range s.broken {
		members := s.sets[set]
		live := -1
		for i, m := range members {
			if w.Alive(m) {
				live = i
				break
			}
		}
		if live < 0 {
			s.drop(set)
			continue
		}
		dst = append(dst, members[live])
	}
	return dst
}

// wakeAll wakes every sleeping body (the gravity changed). It lists them
// first and removes their tags one by one: arche's batch removal builds its
// bookkeeping anew on every call, and a gravity turn must make no garbage.
func (s *sleeper) wakeAll(w *arche.World, f *bodyFilter, sleepingIDs []arche.ID) {
	s.wakeNow = s.wakeNow[:0]
	q := f.Query(w)
	for q.Next() {
		s.wakeNow = append(s.wakeNow, q.Entity())
	}
	for _, e := range s.wakeNow {
		w.Remove(e, sleepingIDs...)
	}
	for i := range s.recs {
		s.recs[i].rest, s.recs[i].set = 0, 0
	}
	for set := range s.sets {
		s.drop(set)
	}
}

// applyWakes runs first in a tick: it wakes the islands touched last tick,
// and everything if the game changed the gravity (resting bodies must feel
// the new "down").
func (p *Physics) applyWakes(w *arche.World) {
	g := p.gravity.Get().V
	if g != p.lastGravity {
		p.lastGravity = g
		p.sleep.wakeAll(w, p.sleepingFilter, p.sleepingIDs)
		p.sleep.pending = p.sleep.pending[:0]
	}
	if len(p.sleep.pending) > 0 {
		p.sleep.wake(w, p.sleep.pending, p.sleepingIDs)
		p.sleep.pending = p.sleep.pending[:0]
	}
}

// speedingUp is the fraction of SleepThreshold by which a body's speed may
// have grown over its rest for it to fall asleep.
const speedingUp = 0.25

// updateSleep advances the rest timers of the moving bodies and puts to
// sleep every island whose bodies have all rested for TimeToSleep and that
// touches no moving kinematic body (Box2D v3 b2FinalizeBodies and
// b2TrySleepIsland).
func (p *Physics) updateSleep() {
	s := &p.sleep
	s.toSleep = s.toSleep[:0]
	dt := float32(p.cfg.Dt)
	for i, e := range p.ents {
		r := s.rec(e)
		if p.s.Sims[i].Kind != solver.KindDynamic {
			r.rest = 0
			continue
		}
		speed := p.restSpeed(i)
		switch {
		case !p.cfg.Sleep || speed > p.cfg.SleepThreshold:
			r.rest = 0
		case r.rest == 0:
			r.rest, r.base = dt, float32(speed)
		default:
			r.rest += dt
		}
	}
	if !p.cfg.Sleep {
		return
	}
	is := &p.s.Islands
	for k := 0; k < is.Len(); k++ {
		ok := true
		for _, i := range is.Bodies(k) {
			if s.recs[p.ents[i].ID()].rest < float32(p.cfg.TimeToSleep) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		// A body that sped up during its rest is not at rest, however
		// slow: a box just past the angle of repose accelerates at a few
		// cm/s^2 and stays under the threshold for longer than
		// TimeToSleep (Box2D lets it sleep there; erincatto/box2d#906).
		// Its rest starts again from its present speed. Judged once, at
		// the end of the rest rather than at every tick, so that a body
		// whose speed only jitters still falls asleep.
		for _, i := range is.Bodies(k) {
			r := &s.recs[p.ents[i].ID()]
			if speed := float32(p.restSpeed(int(i))); speed > r.base+float32(speedingUp*p.cfg.SleepThreshold) {
				r.rest, r.base = dt, speed
				ok = false
			}
		}
		if !ok {
			continue
		}
		for _, li := range is.Contacts(k) {
			c := &p.s.Links[li]
			if movingKinematic(p.s.Bodies, c.A, c.KindA) || movingKinematic(p.s.Bodies, c.B, c.KindB) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		set := s.nextSet
		s.nextSet++
		members := s.list(len(is.Bodies(k)))
		for _, i := range is.Bodies(k) {
			e := p.ents[i]
			members = append(members, e)
			s.toSleep = append(s.toSleep, e)
			s.rec(e).set = set
			// A sleeping body has no velocity; a velocity written later
			// by the game wakes it.
			p.s.Bodies[i].V, p.s.Bodies[i].W = components.Vec2{}, 0
		}
		s.sets[set] = members
		s.members += len(members)
	}
}

// restSpeed is the speed that sleep compares with SleepThreshold: that of
// row i's fastest point, |v| + r_max |w| (Box2D v3 b2FinalizeBodies).
func (p *Physics) restSpeed(i int) float64 {
	st := &p.s.Bodies[i]
	return st.V.Len() + p.s.Sims[i].MaxExtent*abs(st.W)
}

func movingKinematic(bodies []solver.BodyState, i int32, k solver.Kind) bool {
	return k == solver.KindKinematic && (bodies[i].V != components.Vec2{} || bodies[i].W != 0)
}

func abs(x float64) float64 {
	if x < 0 {
		return -x
	}
	return x
}
