package solver

import (
	"math"

	"github.com/tumble2d/tumble/components"
)

// Params are the solver settings of one step.
type Params struct {
	Dt       float64         // step, s
	SubSteps int             // substeps per step, >= 1
	Gravity  components.Vec2 // m/s^2
	// ContactHertz is the stiffness of contacts between two moving bodies;
	// it is capped at a quarter of the substep rate, and contacts against
	// static or kinematic bodies use twice it. Default 60 Hz, Box2D v3's cap
	// at 4 substeps; Box2D's default of 30 Hz sags 2.7 times more on
	// large_pyramid (0.87 m against 0.32 m after 500 steps).
	ContactHertz float64
	// ContactDampingRatio is the damping ratio of the contact spring (10:
	// heavily over-damped, so pushes never bounce).
	ContactDampingRatio float64
	// MaxPushOut caps the speed (m/s) at which overlap is pushed apart.
	MaxPushOut float64
	// RestitutionThreshold: approach speeds (m/s) below it do not bounce, so
	// resting contacts settle.
	RestitutionThreshold float64
	// MaxLinearSpeed caps body speed (m/s).
	MaxLinearSpeed float64
	// LargeIslandContacts is the contact count from which an island is solved
	// by graph colouring across all workers instead of whole on one worker.
	// It must not depend on the worker count, or results would.
	LargeIslandContacts int
}

// DefaultParams returns the settings of the canonical scenes: dt 1/60 s,
// 4 substeps, gravity (0, -10), contact softness 60 Hz with damping ratio
// 10 and push-out 3 m/s, restitution threshold 1 m/s, speed cap 400 m/s,
// colouring from 64 contacts per island.
func DefaultParams() Params {
	return Params{Dt: 1.0 / 60, SubSteps: 4, Gravity: components.Vec2{Y: -10},
		ContactHertz: 60, ContactDampingRatio: 10, MaxPushOut: 3,
		RestitutionThreshold: 1, MaxLinearSpeed: 400, LargeIslandContacts: 64}
}

// Softness returns the contact softness for a contact between two moving
// bodies (static false) or against a static or kinematic body (static true).
func (p *Params) Softness(static bool) Softness {
	h := p.Dt / float64(p.SubSteps)
	hz := math.Min(p.ContactHertz, 0.25/h)
	if static {
		hz *= 2
	}
	return MakeSoft(hz, p.ContactDampingRatio, h)
}

type stepParams struct {
	dt, h, invH          float64
	substeps             int
	gravity              components.Vec2
	maxSpeed, maxSpeedSq float64
	maxPushOut           float64
	restitutionThreshold float64
}

// Solver holds the rows of one step and the scratch that stays warm between
// steps. Fill Bodies, Sims, Contacts and Touching, then call BuildIslands and
// Solve.
type Solver struct {
	Bodies   []BodyState
	Sims     []BodySim
	Contacts []Contact
	// Touching lists the contacts with at least one point, in ascending order.
	Touching []int32
	Islands  Islands
	Coloring Coloring

	p             stepParams
	small         []int32 // islands solved whole, biggest first
	free          []int32 // dynamic bodies without contacts
	largeBodies   []int32
	largeContacts []int32
	task          stageTask
}

// Stats counts what the last Solve worked on.
type Stats struct {
	Islands, LargeIslands, Colored, Colors, Overflow int
}

// BuildIslands computes the islands of the current rows and contacts and
// sorts them into the small ones (solved whole), the bodies without contacts,
// and the large ones (coloured).
func (s *Solver) BuildIslands(prm *Params) Stats {
	s.Islands.Build(s.Sims, s.Contacts, s.Touching)
	is := &s.Islands
	s.small, s.free = s.small[:0], s.free[:0]
	s.largeBodies, s.largeContacts = s.largeBodies[:0], s.largeContacts[:0]
	var st Stats
	st.Islands = is.Len()
	for k := 0; k < is.Len(); k++ {
		nc := int(is.ContactStart[k+1] - is.ContactStart[k])
		switch {
		case nc == 0:
			s.free = append(s.free, is.Bodies(k)...)
		case nc >= prm.LargeIslandContacts:
			st.LargeIslands++
			s.largeBodies = append(s.largeBodies, is.Bodies(k)...)
			s.largeContacts = append(s.largeContacts, is.Contacts(k)...)
		default:
			s.small = append(s.small, int32(k))
		}
	}
	is.sortBySize(s.small)
	s.Coloring.Build(s.Contacts, s.largeContacts, len(s.Sims))
	st.Colored = len(s.largeContacts)
	st.Colors = s.Coloring.Colors()
	st.Overflow = len(s.Coloring.Overflow)
	return st
}

// Solve runs the substeps, restitution and nothing else: the body rows hold
// the new velocities and deltas afterwards, and the contacts their
// accumulated impulses for warm starting. Call BuildIslands first.
func (s *Solver) Solve(ex Executor, prm *Params) {
	h := prm.Dt / float64(prm.SubSteps)
	s.p = stepParams{dt: prm.Dt, h: h, invH: 1 / h, substeps: prm.SubSteps, gravity: prm.Gravity,
		maxSpeed: prm.MaxLinearSpeed, maxSpeedSq: prm.MaxLinearSpeed * prm.MaxLinearSpeed,
		maxPushOut: prm.MaxPushOut, restitutionThreshold: prm.RestitutionThreshold}
	t := &s.task
	t.s = s
	t.mode = modeSmall
	ex.For(len(s.small), 1, t)
	t.mode = modeFree
	ex.For(len(s.free), 256, t)
	if len(s.largeBodies) > 0 {
		s.solveLarge(ex)
	}
}

// solveLarge runs the substeps over the coloured large islands: each stage
// goes colour by colour, the overflow first on one worker.
func (s *Solver) solveLarge(ex Executor) {
	t := &s.task
	for sub := 0; sub < s.p.substeps; sub++ {
		elapsed := float64(sub) * s.p.h
		t.list = s.largeBodies
		t.mode = modeIntegrateVelocities
		ex.For(len(s.largeBodies), 128, t)
		s.colorStage(ex, modeWarmStart, 0)
		t.flip = sub&1 == 1
		s.colorStage(ex, modeSolve, elapsed)
		t.list = s.largeBodies
		t.mode = modeIntegratePositions
		ex.For(len(s.largeBodies), 128, t)
		s.colorStage(ex, modeRelax, elapsed+s.p.h)
	}
	s.colorStage(ex, modeRestitution, 0)
}

func (s *Solver) colorStage(ex Executor, mode int, elapsed float64) {
	t := &s.task
	t.mode, t.elapsed = mode, elapsed
	if ov := s.Coloring.Overflow; len(ov) > 0 {
		t.list = ov
		t.Run(0, len(ov), 0)
	}
	for k := 0; k < s.Coloring.Colors(); k++ {
		t.list = s.Coloring.Color(k)
		ex.For(len(t.list), 64, t)
	}
}

const (
	modeSmall = iota
	modeFree
	modeIntegrateVelocities
	modeIntegratePositions
	modeWarmStart
	modeSolve
	modeRelax
	modeRestitution
)

// stageTask is the one Task of the solver; its fields select the stage. The
// caller runs stages one at a time, so a single value serves them all and
// nothing is allocated per step.
type stageTask struct {
	s       *Solver
	mode    int
	list    []int32
	elapsed float64
	flip    bool // solve the points of each contact in reverse order
}

// Run processes items [lo, hi) of the current stage.
func (t *stageTask) Run(lo, hi, _ int) {
	s := t.s
	p := &s.p
	switch t.mode {
	case modeSmall:
		for k := lo; k < hi; k++ {
			s.solveIsland(int(s.small[k]))
		}
	case modeFree:
		for sub := 0; sub < p.substeps; sub++ {
			integrateVelocities(p, s.Bodies, s.Sims, s.free, lo, hi)
			integratePositions(p, s.Bodies, s.Sims, s.free, lo, hi)
		}
	case modeIntegrateVelocities:
		integrateVelocities(p, s.Bodies, s.Sims, t.list, lo, hi)
	case modeIntegratePositions:
		integratePositions(p, s.Bodies, s.Sims, t.list, lo, hi)
	case modeWarmStart:
		for _, ci := range t.list[lo:hi] {
			warmStart(&s.Contacts[ci], s.Bodies)
		}
	case modeSolve, modeRelax:
		bias := t.mode == modeSolve
		for _, ci := range t.list[lo:hi] {
			solveContact(&s.Contacts[ci], s.Bodies, p, t.elapsed, bias, t.flip)
		}
	case modeRestitution:
		for _, ci := range t.list[lo:hi] {
			applyRestitution(&s.Contacts[ci], s.Bodies, p)
		}
	}
}

// solveIsland runs the whole step for one island on the calling worker.
func (s *Solver) solveIsland(k int) {
	p := &s.p
	bodies := s.Islands.Bodies(k)
	contacts := s.Islands.Contacts(k)
	for sub := 0; sub < p.substeps; sub++ {
		elapsed := float64(sub) * p.h
		flip := sub&1 == 1
		integrateVelocities(p, s.Bodies, s.Sims, bodies, 0, len(bodies))
		for _, ci := range contacts {
			warmStart(&s.Contacts[ci], s.Bodies)
		}
		for _, ci := range contacts {
			solveContact(&s.Contacts[ci], s.Bodies, p, elapsed, true, flip)
		}
		integratePositions(p, s.Bodies, s.Sims, bodies, 0, len(bodies))
		for _, ci := range contacts {
			solveContact(&s.Contacts[ci], s.Bodies, p, elapsed+p.h, false, flip)
		}
	}
	for _, ci := range contacts {
		applyRestitution(&s.Contacts[ci], s.Bodies, p)
	}
}
