package solver

import "github.com/tumble2d/tumble/components"

// Islands that left the speed caps.
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
// So an island whose rows had to be capped in a step forgets the impulses
// of its contacts and joints at the end of it: the next step starts them
// cold, which only converges more slowly. A sweep that stays within the
// caps (a crane whose warm start gives its last link 1 000 m/s, taken back
// by the joints above within the same sweep) keeps them. Capping changes
// no result where nothing is capped, so no scene's checksum changed.
//
// Capped[k] tells, after Solve, whether island k was capped and forgot its
// impulses.

// beginCapped sizes and clears the capped flags for a Solve.
func (s *Solver) beginCapped() {
	s.Capped = resize(s.Capped, s.Islands.Len())
	clear(s.Capped)
	if s.largeJoints {
		s.rowCapped = resize(s.rowCapped, len(s.Sims))
		clear(s.rowCapped)
	}
}

// forgetSmall zeroes the impulses of small island sm's contacts cs and its
// joints, and marks it capped.
func (s *Solver) forgetSmall(sm *smallIsland, cs []Contact, joints []int32) {
	s.Capped[sm.island] = true
	for i := range cs {
		for j := range cs[i].Points {
			cs[i].Points[j].NormalImpulse, cs[i].Points[j].TangentImpulse = 0, 0
		}
	}
	for _, ji := range joints {
		s.Joints[ji].Impulse = components.JointImpulse{}
	}
}

// forgetLarge marks the large islands with a row capped in this Solve
// (capJointedRows' rowCapped) and zeroes the impulses of their contacts, in
// their lanes or rows, and of their joints. It runs on the caller after
// the large islands' stages.
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
		for _, ji := range is.Joints(int(l.island)) {
			s.Joints[ji].Impulse = components.JointImpulse{}
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
		w := &s.blocks[b]
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
