package systems

import (
	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/solver"
)

// joints holds the joint entities of a tick: their solver rows
// (Solver.Joints) are built by gatherJoints after the bodies' rows.
type joints struct {
	filter *generic.Filter1[ecs.Joint]
	comps  generic.Map1[ecs.Joint]
	ents   []arche.Entity // joint entity of each solver joint row
	errs   []ecs.JointError
	// rows maps an entity ID to 1 + its moving row, for the bodies of
	// rowGen's generation (see index).
	rows []rowRef
	// apart holds the pairs of bodies that a joint keeps from colliding.
	apart pairSet
	// seen holds, by joint entity ID, each valid joint as the last gather
	// saw it, and live and prev list the valid joints of this gather and
	// of the last: a joint the game changed, broke or removed wakes the
	// sleepers it held, as Box2D wakes the bodies of a joint it destroys.
	seen       []jointSeen
	live, prev []arche.Entity
	pass       uint32         // counts the gathers
	gone       []arche.Entity // bodies of joints gone since the last gather
	// exceeded lists the joints over their thresholds this tick.
	exceeded []ecs.JointExceeded
}

// jointSeen is a valid joint as a gather saw it, with the poses of its
// static sides (jointSide.host): a host the game moves must wake what
// hangs from it.
type jointSeen struct {
	e      arche.Entity
	a, b   arche.Entity
	xa, xb components.Transform
	spec   components.JointSpec
	pass   uint32 // the gather that saw it last
	// cold is set when its island ran away past the speed caps in the last
	// step it was solved in (solver.Solver.Capped): its next step starts
	// from no impulse, though Joint.Impulse shows the last one.
	cold bool
}

// rowRef is the moving row of one entity ID: valid when gen matches.
type rowRef struct {
	gen uint32
	row int32
}

func (j *joints) init(w *arche.World) {
	j.filter = generic.NewFilter1[ecs.Joint]()
	j.filter.Register(w)
	j.comps = generic.NewMap1[ecs.Joint](w)
}

// index records the moving row of every entity in ents.
func (j *joints) index(ents []arche.Entity) {
	n := uint32(0)
	for _, e := range ents {
		n = max(n, e.ID()+1)
	}
	if uint32(len(j.rows)) < n {
		j.rows = append(j.rows, make([]rowRef, int(n)-len(j.rows))...)
	}
	for i, e := range ents {
		j.rows[e.ID()] = rowRef{gen: e.Generation(), row: int32(i)}
	}
}

// row returns the moving row of e, or -1.
func (j *joints) row(e arche.Entity) int32 {
	if id := e.ID(); id < uint32(len(j.rows)) && j.rows[id].gen == e.Generation() {
		return j.rows[id].row
	}
	return -1
}

// jointSide is one body of a joint as this tick's gather found it.
type jointSide struct {
	row      int32 // moving row, or -1
	kind     solver.Kind
	x        components.Transform // the pose of a body without a row
	sleeping bool
}

// jointSide resolves body e of a joint; the zero entity is the world. A
// body without a moving row is static, kinematic at rest, asleep, or left
// out (reported in Report.Errors); it returns the reason for the last, and
// for a removed entity or one that is not a body.
func (p *Physics) jointSide(w *arche.World, e arche.Entity) (s jointSide, reason string) {
	if e.IsZero() {
		return jointSide{row: -1, kind: solver.KindStatic, x: components.Transform{R: components.Identity}}, ""
	}
	if r := p.joints.row(e); r >= 0 && int(r) < len(p.ents) && p.ents[r] == e {
		return jointSide{row: r, kind: p.s.Sims[r].Kind}, ""
	}
	if !ecs.Alive(w, e) {
		return s, "is a removed entity"
	}
	if ecs.MissingBodyComponent(w, e) != "" {
		// A constant reason: one built per tick allocated.
		return s, "is not a body: it lacks a body component (see ecs.MissingBodyComponent)"
	}
	t, _, _, _, b, _, _ := p.bodies.Get(e)
	if !t.IsValid() {
		return s, "is left out this tick (see Report.Errors)"
	}
	s = jointSide{row: -1, kind: solver.KindStatic, x: *t}
	if b.Type != components.Dynamic {
		return s, "" // static, or kinematic at rest: a frozen row
	}
	if w.Has(e, p.sleepingID) {
		s.sleeping = true
		return s, ""
	}
	return s, "is left out this tick (see Report.Errors)"
}

// gatherJoints builds the solver's joint rows from the joint entities, after
// the bodies' rows, and appends to wake the sleepers that a joint ties to an
// awake body (or to another sleeping island): joined bodies are one island.
func (p *Physics) gatherJoints(w *arche.World, wake []arche.Entity) []arche.Entity {
	js := &p.joints
	p.s.Joints, js.ents, js.errs = p.s.Joints[:0], js.ents[:0], js.errs[:0]
	js.live, js.gone = js.live[:0], js.gone[:0]
	js.pass++
	js.apart.reset()
	q := js.filter.Query(w)
	if q.Count() == 0 && len(js.prev) == 0 {
		q.Close()
		return wake
	}
	js.index(p.ents)
	for q.Next() {
		j, je := q.Get(), q.Entity()
		field, reason := j.CheckValues()
		var a, b jointSide
		side := false // a body of the joint is why it is left out
		if field == "" {
			if a, reason = p.jointSide(w, j.A); reason != "" {
				field, side = "A", true
			} else if b, reason = p.jointSide(w, j.B); reason != "" {
				field, side = "B", true
			}
		}
		if field != "" {
			js.errs = append(js.errs, ecs.JointError{Entity: je, Field: field, Reason: reason})
			// A body left out for a bad value can stand as a static body
			// (addLeftOut): the joint left out with it still keeps the two
			// apart, or the other is pushed out of it (a review's probe:
			// 0.2 m in 10 ticks), and the joint snaps back once mended.
			if side && !j.CollideConnected && !j.A.IsZero() &&
				ecs.Alive(w, j.A) && (j.B.IsZero() || ecs.Alive(w, j.B)) {
				js.apart.add(j.A.ID(), j.B.ID())
			}
			continue
		}
		if !j.CollideConnected && !j.A.IsZero() {
			js.apart.add(j.A.ID(), j.B.ID())
		}
		if js.changed(je, j, &a, &b) {
			wake = appendSleeper(wake, j.A, &a)
			wake = appendSleeper(wake, j.B, &b)
		}
		moving := a.row >= 0 || b.row >= 0
		switch {
		case a.sleeping && (moving || b.sleeping && p.sleep.rec(j.A).set != p.sleep.rec(j.B).set):
			wake = append(wake, j.A)
			if b.sleeping {
				wake = append(wake, j.B)
			}
			continue
		case b.sleeping && moving:
			wake = append(wake, j.B)
			continue
		case a.kind != solver.KindDynamic && b.kind != solver.KindDynamic:
			continue // nothing here moves under the joint this tick
		}
		imp := j.Impulse
		if r := &js.seen[je.ID()]; r.cold {
			imp, r.cold = components.JointImpulse{}, false
		}
		p.s.Joints = append(p.s.Joints, solver.Joint{JointSpec: j.JointSpec,
			A: a.row, B: b.row, KindA: a.kind, KindB: b.kind, XA: a.x, XB: b.x, Impulse: imp})
		js.ents = append(js.ents, je)
	}
	// The joints valid last time and not now were removed or broken.
	for _, je := range js.prev {
		if r := &js.seen[je.ID()]; r.e == je && r.pass != js.pass {
			js.gone = append(js.gone, r.a, r.b)
			r.e = arche.Entity{}
		}
	}
	for _, e := range js.gone {
		if ecs.Alive(w, e) && w.Has(e, p.sleepingID) {
			wake = append(wake, e)
		}
	}
	js.prev, js.live = js.live, js.prev
	return wake
}

// changed records valid joint j of entity je, with sides a and b, as seen
// now, and reports whether it was seen before with other bodies, another
// spec or a side moved; bodies it no longer joins go to gone.
func (js *joints) changed(je arche.Entity, j *ecs.Joint, a, b *jointSide) bool {
	id := int(je.ID())
	if id >= len(js.seen) {
		js.seen = append(js.seen, make([]jointSeen, id+1-len(js.seen))...)
	}
	js.live = append(js.live, je)
	r := &js.seen[id]
	was := r.e == je
	if !was && !r.e.IsZero() {
		// A joint removed since, whose entity ID this one reuses.
		js.gone = append(js.gone, r.a, r.b)
	}
	if was && (r.a != j.A || r.b != j.B) {
		js.gone = append(js.gone, r.a, r.b)
	}
	xa, xb := a.host(), b.host()
	diff := was && (r.a != j.A || r.b != j.B || r.spec != j.JointSpec || r.xa != xa || r.xb != xb)
	*r = jointSeen{e: je, a: j.A, b: j.B, xa: xa, xb: xb, spec: j.JointSpec, pass: js.pass, cold: was && r.cold}
	return diff
}

// host returns the pose of a static side (a static body, a kinematic one at
// rest, the world), which the game may move under a sleeper, or the zero
// pose for a moving or sleeping one: a sleeper moves only by waking, and
// its pose taken in the tick it fell asleep would count as a move.
func (s *jointSide) host() components.Transform {
	if s.row >= 0 || s.sleeping {
		return components.Transform{}
	}
	return s.x
}

// appendSleeper appends body e of a joint to wake if it sleeps.
func appendSleeper(wake []arche.Entity, e arche.Entity, s *jointSide) []arche.Entity {
	if s.sleeping {
		return append(wake, e)
	}
	return wake
}

// storeJoints writes the step's joint impulses back to their components,
// marks the joints of islands that ran away past the speed caps to start
// cold (see solver/capped.go: the impulses stay in the component, where
// the game reads them as forces and thresholds), and lists the joints whose
// force or torque exceeded its threshold.
func (p *Physics) storeJoints() {
	js := &p.joints
	js.exceeded = js.exceeded[:0]
	h := p.cfg.Dt / float64(p.cfg.SubSteps)
	for k, e := range js.ents {
		j := &p.s.Joints[k]
		p.joints.comps.Get(e).Impulse = j.Impulse
		if i := p.s.JointIsland(j); i >= 0 && p.s.Capped[i] {
			js.seen[e.ID()].cold = true
		}
		if j.ForceThreshold == 0 && j.TorqueThreshold == 0 {
			continue
		}
		f, t := j.Reaction(&j.Impulse, h)
		if j.ForceThreshold > 0 && f > j.ForceThreshold || j.TorqueThreshold > 0 && t > j.TorqueThreshold {
			js.exceeded = append(js.exceeded, ecs.JointExceeded{Joint: e, Force: f, Torque: t})
		}
	}
}

// pairSet is a set of unordered entity ID pairs: open addressing with
// linear probing, kept at most half full, cleared by generation so that a
// tick's reset costs nothing.
type pairSet struct {
	keys []uint64
	gens []uint32
	gen  uint32
	n    int
}

func apartKey(a, b uint32) uint64 {
	if a > b {
		a, b = b, a
	}
	return uint64(a)<<32 | uint64(b)
}

func (s *pairSet) reset() {
	s.n = 0
	s.gen++
	if s.gen == 0 { // wrapped: old marks could match again
		clear(s.gens)
		s.gen = 1
	}
}

func (s *pairSet) slot(k uint64) uint64 { return (k * 0x9e3779b97f4a7c15) >> 32 }

func (s *pairSet) add(a, b uint32) {
	if 2*(s.n+1) > len(s.keys) {
		s.grow()
	}
	k := apartKey(a, b)
	mask := uint64(len(s.keys) - 1)
	for i := s.slot(k) & mask; ; i = (i + 1) & mask {
		if s.gens[i] != s.gen {
			s.keys[i], s.gens[i] = k, s.gen
			s.n++
			return
		}
		if s.keys[i] == k {
			return
		}
	}
}

func (s *pairSet) grow() {
	keys, gens, gen := s.keys, s.gens, s.gen
	size := max(16, 2*len(s.keys))
	s.keys, s.gens, s.gen, s.n = make([]uint64, size), make([]uint32, size), 1, 0
	for i, k := range keys {
		if gens[i] == gen {
			s.add(uint32(k>>32), uint32(k))
		}
	}
}

// has reports whether the pair of a and b is in s.
func (s *pairSet) has(a, b uint32) bool {
	if s.n == 0 {
		return false
	}
	k := apartKey(a, b)
	mask := uint64(len(s.keys) - 1)
	for i := s.slot(k) & mask; s.gens[i] == s.gen; i = (i + 1) & mask {
		if s.keys[i] == k {
			return true
		}
	}
	return false
}
