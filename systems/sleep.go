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

// sleepSet is one sleeping island: its bodies, and the impulses its
// contacts had when it fell asleep, to warm start them when it wakes.
type sleepSet struct {
	members  []arche.Entity
	contacts []cachedContact
}

// sleeper decides which islands fall asleep and wakes them again. A sleeping
// island is remembered as a set of entities, so that touching one member
// wakes the whole island in one tick, as in Box2D v3 (solver_set.c).
type sleeper struct {
	recs    []sleepRec // by entity ID
	sets    map[uint32]sleepSet
	members int // entities in all sets
	broken  []uint32
	nextSet uint32
	pending []arche.Entity // touched by an awake body last tick: wake next tick
	urgent  []arche.Entity // touched by an awake body this tick: wake now
	wakeNow []arche.Entity
	toSleep []arche.Entity
	// commanded lists the bodies a game woke while its query locked the
	// world (ecs.TakePendingWakes).
	commanded []arche.Entity
	spare     []sleepSet // lists of woken sets, kept for reuse
	// woken holds the contacts of the sets woken this tick, for the
	// contact preparation to warm start them (see prepareContacts).
	woken []cachedContact
	// ended lists the contacts of the sets dropped this tick because all
	// their members were removed (see contactEvents.ended).
	ended []ecs.ContactEnd
}

// drop forgets sleeping set set and keeps its lists for the next island
// that falls asleep, so that sleeping and waking make no garbage.
func (s *sleeper) drop(set uint32) {
	ss, ok := s.sets[set]
	if !ok {
		return
	}
	s.members -= len(ss.members)
	delete(s.sets, set)
	s.spare = append(s.spare, sleepSet{members: ss.members[:0], contacts: ss.contacts[:0]})
}

// newSet returns an empty set with room for n members and c contacts.
func (s *sleeper) newSet(n, c int) sleepSet {
	if k := len(s.spare); k > 0 {
		ss := s.spare[k-1]
		s.spare = s.spare[:k-1]
		return sleepSet{members: slices.Grow(ss.members, n), contacts: slices.Grow(ss.contacts, c)}
	}
	return sleepSet{members: make([]arche.Entity, 0, n), contacts: make([]cachedContact, 0, c)}
}

func (s *sleeper) init() {
	s.sets = make(map[uint32]sleepSet)
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

// inSet reports whether e belongs to a sleeping island. For a body the
// gather finds awake, the game woke it alone, and the rest of the island
// must wake too.
func (s *sleeper) inSet(e arche.Entity) bool {
	id := int(e.ID())
	return id < len(s.recs) && s.recs[id].set != 0 && s.recs[id].gen == e.Generation()
}

// wake removes the Sleeping tag from the given bodies and from every member
// of their sleeping islands, whose contacts go to woken. Must run with no
// query open.
func (s *sleeper) wake(w *arche.World, list []arche.Entity, sleepingIDs []arche.ID) {
	for _, e := range list {
		set := uint32(0)
		if w.Alive(e) {
			set = s.rec(e).set
		}
		s.wakeOne(w, e, sleepingIDs)
		if ss, ok := s.sets[set]; ok && set != 0 {
			for _, m := range ss.members {
				s.wakeOne(w, m, sleepingIDs)
			}
			s.woken = append(s.woken, ss.contacts...)
			s.drop(set)
		}
	}
}

// wakeOne removes the Sleeping tag from e; sleepingIDs is the tag's ID as a
// kept argument list (see Physics.sleepingIDs).
func (s *sleeper) wakeOne(w *arche.World, e arche.Entity, sleepingIDs []arche.ID) {
	if !w.Alive(e) {
		// A removed member leaves its island too: still marked, it kept
		// the contacts the island had in the last tick from ending (see
		// collectEnded) when it was removed in the tick after the island
		// fell asleep.
		if id := int(e.ID()); id < len(s.recs) && s.recs[id].gen == e.Generation() {
			s.recs[id].rest, s.recs[id].set = 0, 0
		}
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
	for set, ss := range s.sets {
		for _, m := range ss.members {
			if !ecs.IsBody(w, m) || !w.Has(m, sleepingID) {
				s.broken = append(s.broken, set)
				break
			}
		}
	}
	slices.Sort(s.broken)
	for _, set := range s.broken {
		members := s.sets[set].members
		live := -1
		for i, m := range members {
			if w.Alive(m) {
				live = i
				break
			}
		}
		if live < 0 {
			for _, c := range s.sets[set].contacts {
				if c.near {
					s.ended = append(s.ended, ecs.ContactEnd{A: c.a, B: c.b})
				}
			}
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
// The sleeping contacts' impulses are dropped: they held the bodies against
// the old gravity, and warm starting them under the new one would push the
// bodies the old way. The contacts themselves go to woken with no points,
// which warm starts nothing (the same bits as no entry) but tells the
// contact events that they continue. The sets go in the order they fell
// asleep, not in map order, so that the events do not change from run to
// run.
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
	s.broken = s.broken[:0]
	for set := range s.sets {
		s.broken = append(s.broken, set)
	}
	slices.Sort(s.broken)
	for _, set := range s.broken {
		n := len(s.woken)
		s.woken = append(s.woken, s.sets[set].contacts...)
		for i := n; i < len(s.woken); i++ {
			s.woken[i].count = 0
		}
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
	// Bodies a game woke inside its own query loop (ecs.Wake).
	if p.sleep.commanded = ecs.TakePendingWakes(w, p.sleep.commanded[:0]); len(p.sleep.commanded) > 0 {
		p.sleep.wake(w, p.sleep.commanded, p.sleepingIDs)
	}
}

// wakeAhead queues for the next tick the sleepers that a body the solve sped
// up can reach in it. The frozen set is queried with each moving body's box
// grown by two ticks of its speed at the start of the tick, which finds a
// sleeper a tick ahead of a body that keeps its speed; a body that a
// collision sped up beyond that can reach one next tick unseen, and then the
// tick must go back to wake it (see Update): in smash, whose wave of boxes
// knocks each into its sleeping neighbours, its 300 ticks went back 46 times, and
// the wave took a fifth longer to compute. The half speculative distance the
// boxes are grown by covers a gain in speed of up to spec/(2 dt) along an
// axis (0.6 m/s at the defaults): a body falling under gravity gains 0.17
// m/s a tick and is not looked at.
func (p *Physics) wakeAhead() {
	if p.frozen.statics == len(p.frozen.ents) {
		return // nothing sleeps
	}
	dt, half := p.cfg.Dt, 0.5*p.cfg.SpeculativeDistance
	slack := half / dt
	for i := range p.ents {
		sim, st, m := &p.s.Sims[i], &p.s.Bodies[i], &p.motion[i]
		if sim.Kind != solver.KindDynamic {
			continue
		}
		sx, sy := axisSpeeds(st.V, sim.MaxExtent*abs(st.W))
		if gx, gy := axisSpeeds(m.v, m.spin); sx <= gx+slack && sy <= gy+slack {
			continue
		}
		pose := solver.FinalPose(sim, st, dt)
		box := growAxes(p.proxies[i].shapeOf().AABB(pose), half, dt*sx, dt*sy)
		p.aheadPairs = p.grid.FrozenOverlaps(&box, int32(i), p.aheadPairs[:0])
		for _, pr := range p.aheadPairs {
			if p.frozen.sleeping[pr.B] && p.mayTouch(int32(i), int32(len(p.ents))+pr.B) {
				p.sleep.pending = append(p.sleep.pending, p.frozen.ents[pr.B])
			}
		}
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
	p.wakeAhead()
	s := &p.sleep
	s.toSleep = s.toSleep[:0]
	if !p.cfg.Sleep {
		// Sleep is fixed for the life of the system set (Initialize starts
		// from a new state), and only the loop below, with sleep on,
		// moves a rest timer from 0: there is nothing to update. The loop
		// took circle_rain 0.06 ms a step, on the caller alone.
		return
	}
	dt := float32(p.cfg.Dt)
	for i, e := range p.ents {
		r := s.rec(e)
		if p.s.Sims[i].Kind != solver.KindDynamic {
			r.rest = 0
			continue
		}
		speed := p.restSpeed(i)
		switch {
		case !(speed <= p.cfg.SleepThreshold):
			// NaN too: a row whose step went beyond float64 is kept as it
			// was by the scatter, and must not fall asleep with this
			// step's impulses (forgetImpulses runs after the sleep).
			r.rest = 0
		case r.rest == 0:
			r.rest, r.base = dt, float32(speed)
		default:
			r.rest += dt
		}
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
		for _, ji := range is.Joints(k) {
			j := &p.s.Joints[ji]
			if j.A >= 0 && movingKinematic(p.s.Bodies, j.A, j.KindA) || j.B >= 0 && movingKinematic(p.s.Bodies, j.B, j.KindB) {
				ok = false
				break
			}
		}
		if !ok {
			continue
		}
		set := s.nextSet
		s.nextSet++
		ss := s.newSet(len(is.Bodies(k)), len(is.Contacts(k)))
		for _, i := range is.Bodies(k) {
			e := p.ents[i]
			ss.members = append(ss.members, e)
			s.toSleep = append(s.toSleep, e)
			s.rec(e).set = set
			// A sleeping body has no velocity; a velocity written later
			// by the game wakes it.
			p.s.Bodies[i].V, p.s.Bodies[i].W = components.Vec2{}, 0
		}
		// The impulses of link li are entry li of this tick's cache
		// (storeContacts), kept as Box2D v3 keeps a sleeping island's
		// contacts in its solver set (solver_set.c): without them, the
		// first tick after waking solved a resting stack from zero
		// impulses, and the top of 10 boxes sank 6.5 mm and moved at up
		// to 0.17 m/s.
		cc := &p.cache[p.cur]
		for _, li := range is.Contacts(k) {
			ss.contacts = append(ss.contacts, cc.entries[li])
		}
		s.sets[set] = ss
		s.members += len(ss.members)
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
