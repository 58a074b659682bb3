package solver

// Islands that ran away past the speed caps.
//
// The rows of an island with joints are held within the speed caps before
// their positions move (capRows): a joint holding a light body to heavy ones
// far away can give it more speed within a sweep than the caps allow, at
// times 1e40 m/s. The velocities are then capped, but the impulses the
// island's contacts and joints accumulated in that sweep are not, and they
// were kept for the next step's warm start. In a review's fuzzing (random
// bodies, joints with 30 to 200 m lever arms, 600 steps, 40 seeds), two
// bodies that had left such an island warm-started their contact from
// 6e33 N s in the next step, in an island without joints, whose rows are
// not capped, and were thrown 1e30 m in one step, with nothing reported.
//
// So an island whose rows had to be cut from more than runaway times a cap
// marks itself in Capped, and its contacts forget their impulses at the end
// of the step: the next step starts them cold, which only converges more
// slowly. Its joints keep theirs, which the game reads as the joints'
// forces; the caller starts them cold in the next step (package systems,
// storeJoints). A body merely held at a cap (a motor driving a flywheel
// past the angular cap, a body at the speed cap) is not a runaway and keeps
// its warm start.

// runaway is the multiple of a speed cap above which a capped row marks its
// island (capRows, capJointedRows). Two bodies within the caps that meet
// with restitution up to 1 leave each other at most at three times a cap (a
// light body struck head-on by a much heavier one: 2 v + v), so sound
// contacts within a sweep stay below it; the runaways of the fuzzing above
// were 1e16 to 1e40 m/s.
const runaway = 4

// runsAway reports whether a velocity (v, w) is past runaway times the caps
// of p. NaN is not: a step beyond float64 is the caller's to handle
// (package systems, forgetImpulses).
func runsAway(p *stepParams, vv, w float64) bool {
	return vv > runaway*runaway*p.maxSpeed*p.maxSpeed || w > runaway*p.maxAngularSpeed || w < -runaway*p.maxAngularSpeed
}

// beginCapped sizes and clears the capped flags for a Solve.
func (s *Solver) beginCapped() {
	s.Capped = resize(s.Capped, s.Islands.Len())
	clear(s.Capped)
	if s.largeJoints {
		s.rowCapped = resize(s.rowCapped, len(s.Sims))
		clear(s.rowCapped)
	}
}

// forgetSmall marks small island sm capped and zeroes the impulses of its
// contacts cs.
func (s *Solver) forgetSmall(sm *smallIsland, cs []Contact) {
	s.Capped[sm.island] = true
	for i := range cs {
		for j := range cs[i].Points {
			cs[i].Points[j].NormalImpulse, cs[i].Points[j].TangentImpulse = 0, 0
		}
	}
}

// forgetLarge marks the large islands with a row that ran away in this
// Solve (capJointedRows' rowCapped) and zeroes the impulses of their
// contacts, in their lanes or rows. It runs on the caller after the large
// islands' stages.
func (s *Solver) forgetLarge() {
	if !s.largeJoints {
		return
	}
	is := &s.Islands
	for _, l := range s.large {
		capped := false
		for _, i := range s.largeBodies[l.start:l.end] {
			if s.rowCapped[i] {
				capped = true
				break
			}
		}
		if !capped {
			continue
		}
		s.Capped[l.island] = true
		for _, li := range is.Contacts(int(l.island)) {
			s.forgetLink(int(li))
		}
	}
}

// forgetLink zeroes the impulses of the contact of Links[li], wherever
// Impulses reads them.
func (s *Solver) forgetLink(li int) {
	k := s.Rank[li]
	if k < 0 {
		return
	}
	if b, l := s.laneAt(k); b >= 0 {
		w := s.block(b)
		for j := range s.Links[li].points() {
			w.pts[j].normalImpulse[l], w.pts[j].tangentImpulse[l] = 0, 0
		}
		return
	}
	c := &s.Contacts[k]
	for j := range c.Points {
		c.Points[j].NormalImpulse, c.Points[j].TangentImpulse = 0, 0
	}
}

// JointIsland returns the island of joint j: that of its dynamic side, or
// -1 when it has none with a row.
func (s *Solver) JointIsland(j *Joint) int32 { return s.Islands.jointIsland(j) }
