package systems

import (
	"slices"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/solver"
)

// scatter writes the new poses and velocities of the moving rows back to
// their components, clears their force accumulators, and then tags the
// bodies that fell asleep. Rows are written through the entity (a map lookup
// per body, about 5 ns) rather than a second query, so a body the game never
// touched and a body woken this tick are handled alike.
func (p *Physics) scatter(w *arche.World) {
	p.unsound = p.unsound[:0]
	dt := p.cfg.Dt
	for i, e := range p.ents {
		t, v, _, _, _, _, f := p.bodies.GetUnchecked(e)
		st := &p.s.Bodies[i]
		sim := &p.s.Sims[i]
		pose := solver.FinalPose(sim, st, dt)
		*f = components.Force{}
		// x*0 is 0 for finite x and NaN for NaN and Inf, so the sum is 0
		// exactly when all seven are finite: one test where seven IsFinite
		// calls cost the scatter a third more time. FinalPose normalises
		// the rotation, so finite is valid.
		if pose.P.X*0+pose.P.Y*0+pose.R.C*0+pose.R.S*0+st.V.X*0+st.V.Y*0+st.W*0 != 0 {
			// Only values beyond float64 get here (gravity or a body's
			// gravity scale near 1e300, say): the gather checked every input.
			// The body keeps the pose and velocity it had, valid ones, and is
			// reported, rather than written NaN.
			p.errs = append(p.errs, ecs.BodyError{Entity: e, Field: "Transform",
				Reason: "would become NaN or infinite in this step (values beyond float64); kept as it was"})
			p.unsound = append(p.unsound, int32(i))
			continue
		}
		*t, *v = pose, components.Velocity{Lin: st.V, Ang: st.W}
	}
	if len(p.unsound) > 0 {
		p.forgetImpulses()
	}
	p.storeJoints()
	half := 0.5 * p.cfg.SpeculativeDistance
	for _, e := range p.sleep.toSleep {
		t, _, s, mat, _, _, _ := p.bodies.GetUnchecked(e)
		p.frozen.rememberSleeper(e, *t, s, mat, half)
		w.Add(e, p.sleepingIDs...)
	}
}

// forgetImpulses zeroes the impulses kept for the next tick (the contact
// cache's, and the joints' before storeJoints writes them back) of every
// contact and joint on a row in p.unsound, whose step went beyond float64.
// Such a step leaves finite impulses as wrong as its NaN: a box of 1e300 kg
// (accepted: its inverse mass is finite) under a light one left their
// contact a friction impulse of 3e280 N s, and once the game gave it back
// 1 kg, each later tick warm-started from it, went beyond float64 again,
// and kept both bodies left out (a review's probe). p.unsound is in
// ascending row order, as scatter found the rows.
func (p *Physics) forgetImpulses() {
	bad := func(row int32) bool {
		_, found := slices.BinarySearch(p.unsound, row)
		return row >= 0 && found
	}
	entries := p.cache[p.cur].entries
	for k := range p.touching {
		if l := &p.s.Links[k]; bad(l.A) || bad(l.B) {
			entries[k].normal, entries[k].tangent = [2]float64{}, [2]float64{}
		}
	}
	for k := range p.s.Joints {
		if j := &p.s.Joints[k]; bad(j.A) || bad(j.B) {
			j.Impulse = components.JointImpulse{}
		}
	}
}
