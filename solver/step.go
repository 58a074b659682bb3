package solver

import (
	"cmp"
	"math"
	"slices"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/internal/prefetch"
)

// Params are the solver settings of one step.
type Params struct {
	Dt       float64         // step, s
	SubSteps int             // substeps per step, >= 1
	Gravity  components.Vec2 // m/s^2
	// ContactHertz is the stiffness of contacts between two moving bodies;
	// it is capped at a quarter of the substep rate, and contacts against
	// static or kinematic bodies use twice it. Default 60 Hz, the cap at 4
	// substeps, with which large_pyramid sags 0.52 m in 500 steps (Box2D
	// v3.1.1 at its default of 30 Hz: 0.73 m; Box2D v3.2, measured, runs
	// 30 Hz here whatever its setting from 30 to 120 Hz).
	ContactHertz float64
	// HeavyContactHertz is the stiffness of the contacts between moving
	// bodies in an island whose dynamic bodies' masses differ by more than
	// HeavyMassRatio; the lower of it and ContactHertz applies, and
	// contacts against static or kinematic bodies keep twice ContactHertz.
	// Default 30 Hz, Box2D v3's default for all contacts: at 60 Hz a 1 x 1
	// m box on a 4 x 0.1 m plank bounced and never slept from a mass ratio
	// of 75, and Box2D's HighMassRatio1 pyramids (tops 100 to 300 times
	// heavier) collapsed. Softening only the contacts of the heavy body
	// itself held the plank but not the pyramids, whose light boxes carry
	// the weight on: one of them still shed three boxes.
	HeavyContactHertz float64
	// HeavyMassRatio is the ratio of the heaviest to the lightest dynamic
	// body of an island above which its contacts take HeavyContactHertz; 0
	// turns that off.
	HeavyMassRatio float64
	// ContactDampingRatio is the damping ratio of the contact spring (10:
	// heavily over-damped, so pushes never bounce).
	ContactDampingRatio float64
	// MaxPushOut caps the speed (m/s) at which overlap is pushed apart.
	MaxPushOut float64
	// DeepOverlap (m), when > 0: overlap deeper than this is pushed out at
	// a quarter of the contact spring's rate (deepPushRate); 0, the
	// default, pushes at the full rate at any depth, as Box2D does. One
	// relax sweep per substep takes back the push of a contact from its own
	// two bodies but not along a chain, so pushes add up: a column of ten
	// boxes created 5 cm into each other throws its top box 1 m up, and 25
	// cm deep 17.6 m, and falls (Box2D v3.2 at its 30 Hz: no rise, and 6.4
	// m); at 0.01, no rise and 1.4 m, and the column stands. It is not the
	// default because it also slows the push-out of the overlap a fast body
	// makes when it lands on a pile: circle_rain ends with 13 % more
	// contacts and its piles joined into 23 islands instead of 232.
	// Islands of bodies far apart in mass (HeavyMassRatio) keep the full
	// rate: a heavy body rests centimetres deep in a light one (r g /
	// omega^2 for mass ratio r), and the slower push let a box 250 times
	// heavier than its plank sink 9 of the plank's 10 cm.
	DeepOverlap float64
	// RestitutionThreshold: approach speeds (m/s) below it do not bounce, so
	// resting contacts settle.
	RestitutionThreshold float64
	// MaxLinearSpeed caps body speed (m/s).
	MaxLinearSpeed float64
	// LargeIslandContacts is the contact count from which an island is solved
	// by graph colouring across all workers instead of whole on one worker.
	// It must not depend on the worker count, or results would.
	LargeIslandContacts int
	// ForwardColorOrder sweeps the colours of the solve and the relax in
	// one order in every substep, as Box2D v3 does, instead of reversing
	// both every other substep. At 60 Hz pyramids of base 20 and more then
	// slide sideways and never sleep (their tops 1.1-1.3 m off after 20
	// s); at 30 Hz they do not, and with ContactHertz 30 the solver
	// reproduces Box2D v3.2's pyramids: bases 16 to 30 asleep at steps 54
	// to 73 (Box2D: 46 to 65), tops 19 to 69 mm down (Box2D: 19 to 67),
	// and large_pyramid sags 0.86 m (Box2D: 0.73, the default here 0.52).
	ForwardColorOrder bool
}

// DefaultParams returns the settings of the canonical scenes: dt 1/60 s,
// 4 substeps, gravity (0, -10), contact softness 60 Hz (30 Hz in islands
// whose masses differ more than tenfold) with damping ratio 10 and
// push-out 3 m/s, restitution threshold 1 m/s, speed cap 400 m/s,
// colouring from 64 contacts per island.
func DefaultParams() Params {
	return Params{Dt: 1.0 / 60, SubSteps: 4, Gravity: components.Vec2{Y: -10},
		ContactHertz: 60, HeavyContactHertz: 30, HeavyMassRatio: 10, ContactDampingRatio: 10, MaxPushOut: 3,
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

// HeavySoftness returns the contact softness between two moving bodies of
// an island whose masses differ by more than HeavyMassRatio.
func (p *Params) HeavySoftness() Softness {
	h := p.Dt / float64(p.SubSteps)
	hz := math.Min(math.Min(p.ContactHertz, p.HeavyContactHertz), 0.25/h)
	return MakeSoft(hz, p.ContactDampingRatio, h)
}

// heavyRatio is the ratio that [Solver.heavyIsland] tests: +Inf when the
// heavy softness is off, so that no island passes.
func (p *Params) heavyRatio() float64 {
	if p.HeavyMassRatio == 0 {
		return math.Inf(1)
	}
	return p.HeavyMassRatio
}

// heavyIsland reports whether the dynamic bodies among rows differ in mass
// by more than s.heavyRatio. Only dynamic rows have a positive inverse
// mass, so it reads that field alone: one cache line of each cold row.
// With the heavy softness off (HeavyMassRatio 0) no island passes, and no
// row is read.
func (s *Solver) heavyIsland(rows []int32) bool {
	if math.IsInf(s.heavyRatio, 1) {
		return false
	}
	lo, hi := math.Inf(1), 0.0 // inverse masses
	for _, i := range rows {
		if m := s.Sims[i].InvMass; m > 0 {
			lo, hi = min(lo, m), max(hi, m)
		}
	}
	return hi > s.heavyRatio*lo
}

// deepPushRate is the share of the contact spring's push-out rate that
// overlap deeper than Params.DeepOverlap gets. Over a column of ten boxes
// created overlapping (solved as one island), a quarter left no rise at 5
// and 10 cm and 1.4 m at 25 cm, and the column stood; a half still threw
// the top box 0.2, 1.2 and 8.8 m up, and the last column fell.
const deepPushRate = 0.25

// deepFrac is the part of the push-out rate that overlap past DeepOverlap
// loses: 1 - deepPushRate, or 0 when DeepOverlap is 0.
func (p *Params) deepFrac() float64 {
	if p.DeepOverlap == 0 {
		return 0
	}
	return 1 - deepPushRate
}

// maxRotation caps the turn of a body in one substep (rad), as Box2D v3's
// B2_MAX_ROTATION does: 188 rad/s at 4 substeps of 1/60 s.
const maxRotation = 0.25 * math.Pi

// MaxAngularSpeed returns the spin cap of p's substeps, rad/s: an eighth
// of a turn (pi/4) per substep.
func (p *Params) MaxAngularSpeed() float64 { return maxRotation * float64(p.SubSteps) / p.Dt }

type stepParams struct {
	dt, h, invH     float64
	substeps        int
	gravity         components.Vec2
	maxSpeed        float64
	maxAngularSpeed float64 // rad/s: an eighth of a turn (pi/4) per substep
	maxPushOut      float64
	// deepOverlap and deepFrac shape the push-out bias of an overlap sep <
	// 0: biasRate (sep - deepFrac min(sep + deepOverlap, 0)), which keeps
	// the full rate down to deepOverlap and 1 - deepFrac of it below.
	deepOverlap, deepFrac float64
	restitutionThreshold  float64
	soft, stiff           Softness // between moving bodies; against static or kinematic
	heavy                 Softness // between moving bodies in islands of masses apart by more than heavyRatio
	joint                 Softness // the rigid joints (Params.jointSoftness)
	hubJoint              Softness // the rigid joints of islands with a hub (Params.hubJointSoftness)
}

// Link is the part of a contact that islands and colouring need: which body
// rows it joins and how they move.
type Link struct {
	A, B         int32 // body rows, -1 for static
	KindA, KindB Kind
	// Points is the number of manifold points, 1 or 2 (0 is taken as 2).
	// Each colour lays out its two-point contacts first, so that the wide
	// kernels can skip the empty second point of blocks of one-point
	// contacts (circles).
	Points uint8
}

// points returns the link's point count as the wide layout uses it: 1, or
// 2 for 2 and for unknown (0).
func (l *Link) points() int32 {
	if l.Points == 1 {
		return 1
	}
	return 2
}

// Solver holds the rows of one step and the scratch that stays warm between
// steps. Each step: fill Bodies, Sims and Links (one per touching contact),
// call BuildIslands, store the prepared contact of every link with
// SetContact (or Arrange), call Solve, and read the impulses back with
// Impulses. Contacts holds the contacts solved by the scalar kernels, in
// solver order (Contacts[k] is the contact of Links[Order[k]]); coloured
// contacts solved by the wide kernels live in their lanes instead.
//
// The solver order puts the contacts of each island solved whole next to
// each other, then the contacts of the large islands colour by colour, so
// every stage streams through memory instead of jumping through it: on
// many_pyramids (58 000 contacts, 18 MB of constraints) jumping cost more
// than the arithmetic.
type Solver struct {
	Bodies []BodyState
	Sims   []BodySim
	Links  []Link
	Order  []int32
	// Rank is the inverse of Order: Links[i] is contact Rank[i] of the
	// solver order, or -1 if it has no dynamic side (it is not solved).
	// Filling the contacts in link order through Rank reads the caller's
	// per-pair data front to back, where Order would jump through it.
	Rank     []int32
	Contacts []Contact
	// Joints are the joints of the step (joint.go), filled by the caller
	// before BuildIslands. They join islands as contacts do, and are solved
	// by the scalar kernels just before the contacts of their island in
	// each stage: with them in a small island; in the large ones, in
	// colours of their own that the workers share (colorJoints).
	Joints   []Joint
	Islands  Islands
	Coloring Coloring
	// Beside, if not nil, is a job of the caller's that needs none of the
	// solver's data: BuildIslandsOn runs it after the colouring of every
	// link, on the worker that colours while the caller finds the islands
	// (the colouring is the shorter: tumbler's other worker waited 0.04 ms
	// a step for the islands), or on the caller after the islands. Package
	// systems empties the contact cache there.
	Beside Task
	// Capped tells, after Solve, which islands (by Islands index) had rows
	// that ran away past the speed caps: their contacts' impulses are
	// zeroed, and their joints are to start cold in the next step (see
	// capped.go).
	Capped []bool

	p     stepParams
	small []smallIsland // solved whole, biggest first
	free  []int32       // dynamic bodies without contacts
	// Large islands: their bodies, and the contact ranges in solver order,
	// group by group (see largeGroup): the overflow of group g
	// [groups[g].overflow, colorStart[groups[g].colors[0]]), its colour k
	// [colorStart[c], colorStart[c+1]) with c = groups[g].colors[0]+k.
	largeBodies []int32
	large       []largeIsland // the large islands, ranges of largeBodies
	largeStart  int32
	colorStart  []int32
	largeLinks  []int32
	groups      []largeGroup
	groupCtx    []groupCtx // per worker, when the groups run concurrently
	groupsTask  groupsTask
	halves      halves // the only group, solved in halves (halves.go)
	// bounces[k] is set once SetContact has stored a contact of colour k
	// with restitution or a two-point impact (Contact.impact): the
	// restitution pass runs only those colours. In
	// scenes of resting boxes (Box2D's default restitution is 0) it skips a
	// job per colour, each a walk over the colour's blocks that found nothing
	// to do. A flag is loaded before it is stored, so workers storing
	// contacts of one colour share its line read-only.
	bounces [maxColors]atomic.Bool
	// impactSpeed is the restitution threshold of the step being built:
	// SetContact runs before Solve has the step's parameters.
	impactSpeed float64
	// heavyRatio is the heavy mass ratio of the step being built, and
	// heavyLink[li] is set when link li belongs to an island whose masses
	// differ by more than it: its contact takes the heavy softness (the
	// scalar kernels through pHeavy, the wide lanes through their heavy
	// mask).
	heavyRatio float64
	heavyLink  []bool
	forward    bool       // Params.ForwardColorOrder of the step being solved
	pHeavy     stepParams // p with the heavy softness between moving bodies, deep push at full rate
	pHub       stepParams // p with the softer joints of islands with a hub (jointPasses)
	// totals[k] sums the normal impulses of contact k over the substeps,
	// for the restitution of small islands (applyRestitution).
	totals [][2]float64
	// rest holds each body row's velocity before the restitution pass,
	// and elasticLarge is set once SetContact has stored a contact of a
	// large island with restitution: the bound of energy.go then runs.
	rest         []restRow
	start        []restRow // each body row's velocity at the start of the step (stepbound.go)
	elasticLarge atomic.Bool
	// push[li] is the push-out energy of the coloured contact of link li
	// (Contact.pushEnergy), stored by SetContact.
	push []float64
	// The chunks of the large islands for their bounds, and their partial
	// sums (boundlarge.go).
	rowChunks, linkChunks []boundChunk
	rowSums, linkSums     []chunkSums
	task                  stageTask
	islandTask            islandTask
	// The last BuildIslands' coloured and total links, to decide whether
	// colouring every link alongside the islands pays.
	lastColored, lastLinks int
	// lastKinematic is set when the last BuildIslands' large islands
	// touched kinematic rows, which keeps them from forming groups: the
	// guess of whether they may be halved (orderHalves).
	lastKinematic bool
	// largeJoints is set when a large island has a joint; jointOrder then
	// lists the joints of the large islands colour by colour, colour k
	// being jointOrder[jointColorStart[k]:jointColorStart[k+1]] (joint.go,
	// colorJoints).
	largeJoints     bool
	rowCapped       []bool  // by body row, with largeJoints: capped in this Solve (capped.go)
	largePasses     uint8   // the most joint sweeps a large island needs (islandPasses)
	islandPasses    []uint8 // by island: its joint sweeps
	islandSoft      []bool  // by island: its rigid joints take the hub's softness
	jointsOf        []uint8 // by body row: its joints, up to 255
	jointOrder      []int32
	jointColorStart []int32
	jointMask       []uint64 // by body row: the colours of its joints so far
	jointColor      []uint8  // by position in the large islands' joints

	// Wide blocks of the coloured contacts (wide.go), when wide.
	wide bool
	// The blocks, back to back in arena from unit blockOff[b] (see
	// wideUnit): Solver.block returns block b.
	arena      []wideUnit
	blockOff   []int32
	cold       []wideCold // cold[b] belongs to block b
	blockPts   []uint8    // blockPts[b] is the point count of block b's first contact (layoutWide)
	blockStart []int32    // colour entry c (as colorStart) owns blocks [blockStart[c], blockStart[c+1])
	wideSlot   []int32    // block*lanes+lane of solver position largeStart+k, -1 for the overflow
	kinRows    []int32    // kinematic rows touched by the large islands
	dummyOff   int64      // byte offset of the zero row Solve appends to Bodies
	// wideSets[bias][flip] are the wide kernels' constants of the stages:
	// bias 1 for the solve, 0 for the warm start and the relax; flip 1
	// with the points taken backwards. Filled once a Solve: the workers
	// only read them, so their lines stay shared in both cores' caches.
	// Written before each stage, the caller had to take back each line
	// the other core had read (20 a stage, 13 stages a step).
	wideSets [2][2]wideParams
	badLane  atomic.Bool // checkLanes found a lane outside Bodies

	place placement // where the coloured stages run (placement.go)
}

// ColoredOnCaller reports whether the last Solve ran the coloured large
// islands on the calling goroutine alone, although its executor had more
// workers: the solver times both placements now and then and keeps the
// faster (placement.go). The results are the same bits either way.
func (s *Solver) ColoredOnCaller() bool { return s.place.last }

// islandTask runs the two halves of BuildIslandsOn: item 0 finds the
// islands, item 1 colours every link.
type islandTask struct{ s *Solver }

func (t *islandTask) Run(lo, hi, w int) {
	s := t.s
	for i := lo; i < hi; i++ {
		if i == 0 {
			s.Islands.build(s.Sims, s.Links, s.Joints)
		} else {
			s.Coloring.colorLinks(s.Links, nil, len(s.Sims))
			if s.Beside != nil {
				s.Beside.Run(0, 1, w)
			}
		}
	}
}

// smallIsland is an island solved whole by one worker: its bodies (an
// Islands range) and its contacts (a range of Contacts).
type smallIsland struct {
	island     int32
	start, end int32
	heavy      bool // solved with pHeavy (see Solver.heavyLink)
}

// Stats counts what the last BuildIslands found.
type Stats struct {
	Islands, LargeIslands, Colored, Colors, Overflow int
}

// BuildIslands computes the islands of the current rows and links, sorts them
// into the small ones (solved whole), the bodies without contacts and the
// large ones (coloured), and fills Order, the solver order of the links.
func (s *Solver) BuildIslands(prm *Params) Stats { return s.BuildIslandsOn(Serial{}, prm) }

// BuildIslandsOn is BuildIslands with the colouring of the links run on a
// second worker of ex while the caller finds the islands, when the last
// step coloured at least half of its links: the two were the serial stage
// between the narrow phase and the solve (0.16 and 0.13 ms on
// large_pyramid). All links are coloured then, which gives each link of a
// large island the colour it would get alone (Coloring.colorLinks), so the
// result is the same for any executor.
func (s *Solver) BuildIslandsOn(ex Executor, prm *Params) Stats {
	s.setParams(prm) // for SetContact's push-out energies
	s.impactSpeed = prm.RestitutionThreshold
	s.heavyRatio = prm.heavyRatio()
	overlap := ex.Workers() > 1 && 2*s.lastColored >= s.lastLinks && s.lastColored > 0
	if overlap {
		s.islandTask.s = s
		ex.For(2, 1, &s.islandTask)
	} else {
		s.Islands.build(s.Sims, s.Links, s.Joints)
		if s.Beside != nil {
			s.Beside.Run(0, 1, 0)
		}
	}
	is := &s.Islands
	s.small, s.free = s.small[:0], s.free[:0]
	s.largeBodies, s.largeLinks = s.largeBodies[:0], s.largeLinks[:0]
	s.large = s.large[:0]
	s.largeJoints, s.largePasses = false, 1
	s.islandPasses = resize(s.islandPasses, is.Len())
	s.islandSoft = resize(s.islandSoft, is.Len())
	s.countJoints()
	s.push = resize(s.push, len(s.Links))
	s.elasticLarge.Store(false)
	var st Stats
	st.Islands = is.Len()
	s.heavyLink = resize(s.heavyLink, len(s.Links))
	clear(s.heavyLink)
	// No island's masses lie further apart than all of them do: when the
	// whole set is within the ratio, no island's rows need reading. Read
	// island by island, they took 0.08 ms a step of circle_rain on one
	// worker, whose masses lie within 4 of each other.
	spread := is.invMassHi > s.heavyRatio*is.invMassLo
	for k := 0; k < is.Len(); k++ {
		nc := int(is.ContactStart[k+1] - is.ContactStart[k])
		heavy := nc > 0 && spread && s.heavyIsland(is.Bodies(k))
		if heavy {
			for _, li := range is.Contacts(k) {
				s.heavyLink[li] = true
			}
		}
		nj := is.JointStart[k+1] - is.JointStart[k]
		passes, soft := uint8(1), false
		if nj > 0 {
			passes, soft = s.jointPasses(k)
		}
		s.islandPasses[k], s.islandSoft[k] = passes, soft
		switch {
		case nc == 0 && nj > 0:
			s.small = append(s.small, smallIsland{island: int32(k), heavy: heavy})
		case nc == 0:
			s.free = append(s.free, is.Bodies(k)...)
		case nc >= prm.LargeIslandContacts:
			st.LargeIslands++
			start := int32(len(s.largeBodies))
			s.largeBodies = append(s.largeBodies, is.Bodies(k)...)
			s.large = append(s.large, largeIsland{start: start, end: int32(len(s.largeBodies)), island: int32(k)})
			s.largeJoints = s.largeJoints || nj > 0
			s.largePasses = max(s.largePasses, passes)
			s.largeLinks = append(s.largeLinks, is.Contacts(k)...)
		default:
			s.small = append(s.small, smallIsland{island: int32(k), heavy: heavy})
		}
	}
	slices.SortStableFunc(s.small, func(a, b smallIsland) int {
		na := is.ContactStart[a.island+1] - is.ContactStart[a.island]
		nb := is.ContactStart[b.island+1] - is.ContactStart[b.island]
		return cmp.Compare(nb, na)
	})
	s.chunkLarge()
	if s.largeJoints {
		s.colorJoints()
	}
	s.Order = s.Order[:0]
	for i := range s.small {
		sm := &s.small[i]
		sm.start = int32(len(s.Order))
		s.Order = append(s.Order, is.Contacts(int(sm.island))...)
		sm.end = int32(len(s.Order))
	}
	if !overlap {
		s.Coloring.colorLinks(s.Links, s.largeLinks, len(s.Sims))
	}
	var half []int8
	// The halves solve their colours side by side through a substep; the
	// joints of large islands run in their own colours between the stages
	// (largeJointStage), so islands with joints are not halved.
	split := !s.largeJoints && s.halvesFirst()
	byPart := split && (len(s.large) < 2 || noGroups || s.lastKinematic)
	if byPart {
		half = s.halves.half
	}
	s.Coloring.collectOn(ex, s.Links, s.largeLinks, half)
	s.lastKinematic = len(s.Coloring.Kinematic) > 0
	s.largeStart = int32(len(s.Order))
	s.colorStart = s.colorStart[:0]
	s.halves.colors = 0
	if s.groupLarge() {
		s.orderGroups()
	} else {
		s.Order = append(s.Order, s.Coloring.Overflow...)
		if !split || !s.orderHalves(byPart) {
			for k := 0; k < s.Coloring.Colors(); k++ {
				s.colorStart = append(s.colorStart, int32(len(s.Order)))
				s.Order = append(s.Order, s.Coloring.Color(k)...) // two-point links first
			}
		}
		s.colorStart = append(s.colorStart, int32(len(s.Order)))
		s.groups = append(s.groups[:0], s.wholeGroup())
	}
	for k := range s.Coloring.Colors() {
		s.bounces[k].Store(false)
	}
	s.Rank = resize(s.Rank, len(s.Links))
	for i := range s.Rank {
		s.Rank[i] = -1
	}
	for k, li := range s.Order {
		s.Rank[li] = int32(k)
	}
	s.Contacts = resize(s.Contacts, len(s.Order))
	s.wide = wideKernel && len(s.largeLinks) > 0
	if s.wide {
		s.layoutWide()
	}
	st.Colored = len(s.largeLinks)
	s.lastColored, s.lastLinks = st.Colored, len(s.Links)
	st.Colors = s.Coloring.Colors()
	st.Overflow = len(s.Coloring.Overflow)
	return st
}

// SetContact stores the prepared contact of Links[li] at its place in the
// solver order: Contacts[Rank[li]], or its lane of a wide block. Call it
// for every link after BuildIslands and before Solve; calls for different
// links may run concurrently. A link that has Points set must have that
// many points in c. Links with no dynamic side are not solved and are
// ignored.
func (s *Solver) SetContact(li int, c *Contact) {
	k := s.Rank[li]
	if k < 0 {
		return
	}
	if p := s.Links[li].Points; p != 0 && int32(p) != c.Count {
		panic("solver: SetContact: the contact's Count differs from its link's Points")
	}
	if c.impact(s.impactSpeed) && s.colored(li) {
		if b := &s.bounces[s.Coloring.linkColor[li]]; !b.Load() {
			b.Store(true)
		}
	}
	if k >= s.largeStart {
		// The push-out energy of the coloured contacts, for the step bound
		// of their island (boundlarge.go): read while the contact is at hand.
		p := &s.p
		if s.heavyLink[li] {
			p = &s.pHeavy
		}
		s.push[li] = c.pushEnergy(p)
	}
	if k >= s.largeStart && c.Restitution > 0 && !s.elasticLarge.Load() {
		s.elasticLarge.Store(true)
	}
	if b, l := s.lane(k, false); b >= 0 {
		s.setLane(b, l, c, s.heavyLink[li])
		return
	}
	s.Contacts[k] = *c
}

// colored reports whether the contact of Links[li] is in a colour of a
// large island (not in a small island, nor in the overflow).
func (s *Solver) colored(li int) bool {
	return s.Rank[li] >= s.largeStart && s.Coloring.linkColor[li] >= 0
}

// lane returns the wide block and lane of contact k of the solver order, or
// nil if the scalar kernels solve it (from Contacts[k]). At the first lane
// of a block it prefetches the next block: all of it, to be written
// (SetContact), or with impulses set the lines of its impulses, to be read.
//
// SetContact and Impulses go in link order, which moves through each
// colour's blocks a lane at a time, with a stream per colour and point
// count interleaved: about 2 x 6 blocks written a lane at a time, each
// block 36 cache lines then (30 now, and 3 of its wideCold), long evicted
// since the last step. The hardware
// prefetchers do not follow so many streams, and the stores of SetContact
// waited on their lines (the preparation took as long as the whole
// coloured solve on many_pyramids, 7 of 28 ms a step). The next block of a
// stream is the next one in memory, and it is reached 8 contacts of that
// stream later, so its lines have time to arrive.
func (s *Solver) lane(k int32, impulses bool) (int, int) {
	b, l := s.laneAt(k)
	if b < 0 {
		return -1, 0
	}
	if l == 0 && b+1 < len(s.blockOff) {
		next := s.block(b + 1)
		pts := int(s.blockPts[b+1]) // a one-point block has no second point (wideUnit)
		if impulses {
			for j := range pts {
				pt := &next.pts[j] // its two impulse rows are adjacent
				prefetch.Read(unsafe.Pointer(&pt.normalImpulse), unsafe.Sizeof(pt.normalImpulse)+unsafe.Sizeof(pt.tangentImpulse))
			}
		} else {
			prefetch.Write(unsafe.Pointer(next), blockBytes(int64(pts)))
			prefetch.Write(unsafe.Pointer(&s.cold[b+1]), unsafe.Sizeof(s.cold[b+1]))
		}
	}
	return b, l
}

// laneAt returns the wide block and lane of contact k of the solver order,
// or block -1 if the scalar kernels solve it.
func (s *Solver) laneAt(k int32) (b, l int) {
	if !s.wide || k < s.largeStart {
		return -1, 0
	}
	slot := s.wideSlot[k-s.largeStart]
	if slot < 0 {
		return -1, 0
	}
	return int(slot / lanes), int(slot % lanes)
}

// Impulses returns the point count and the accumulated normal and tangent
// impulses of the contact of Links[li] after Solve, for warm starting. A
// coloured contact whose link left Points at 0 reports 2 points, the second
// with zero impulses if it had one; a link that is not solved reports none.
func (s *Solver) Impulses(li int) (count int32, normal, tangent [2]float64) {
	k := s.Rank[li]
	if k < 0 {
		return 0, normal, tangent
	}
	if b, l := s.lane(k, true); b >= 0 {
		w := s.block(b)
		count = s.Links[li].points()
		for j := range count {
			normal[j], tangent[j] = w.pts[j].normalImpulse[l], w.pts[j].tangentImpulse[l]
		}
		return count, normal, tangent
	}
	c := &s.Contacts[k]
	for j := range c.Count {
		normal[j], tangent[j] = c.Points[j].NormalImpulse, c.Points[j].TangentImpulse
	}
	return c.Count, normal, tangent
}

// Approach returns the point count of the contact of Links[li] after
// Solve, and for each point its normal velocity before the step (or at
// the gap's closing, see [Contact.AimRestitution]; negative when the
// bodies approach) and the largest normal impulse it applied in a
// substep: a point that approached but pushed nothing (a speculative
// point whose gap never closed) did not hit. A link that is not solved
// reports none.
func (s *Solver) Approach(li int) (count int32, velocity, pushed [2]float64) {
	k := s.Rank[li]
	if k < 0 {
		return 0, velocity, pushed
	}
	if b, l := s.laneAt(k); b >= 0 {
		w := s.block(b)
		count = s.Links[li].points()
		for j := range count {
			velocity[j], pushed[j] = s.cold[b].relVel[j][l], w.pts[j].maxNormalImpulse[l]
		}
		return count, velocity, pushed
	}
	c := &s.Contacts[k]
	for j := range c.Count {
		velocity[j], pushed[j] = c.Points[j].RelativeVelocity, c.Points[j].MaxNormalImpulse
	}
	return c.Count, velocity, pushed
}

// setParams derives the step's constants from prm: BuildIslandsOn sets
// them for SetContact, Solve for the step.
func (s *Solver) setParams(prm *Params) {
	h := prm.Dt / float64(prm.SubSteps)
	s.p = stepParams{dt: prm.Dt, h: h, invH: 1 / h, substeps: prm.SubSteps, gravity: prm.Gravity,
		maxSpeed: prm.MaxLinearSpeed, maxAngularSpeed: prm.MaxAngularSpeed(),
		maxPushOut: prm.MaxPushOut, restitutionThreshold: prm.RestitutionThreshold,
		deepOverlap: prm.DeepOverlap, deepFrac: prm.deepFrac(),
		soft: prm.Softness(false), stiff: prm.Softness(true), heavy: prm.HeavySoftness(),
		joint: prm.jointSoftness(), hubJoint: prm.hubJointSoftness()}
	s.forward = prm.ForwardColorOrder
	s.pHeavy = s.p
	s.pHeavy.soft = s.p.heavy
	s.pHeavy.deepFrac = 0 // see Params.DeepOverlap
	s.pHub = s.p
	s.pHub.joint = s.p.hubJoint
}

// Solve runs the substeps and restitution: the body rows hold the new
// velocities and deltas afterwards, and the contacts their accumulated
// impulses for warm starting ([Solver.Impulses]). Call BuildIslands and
// SetContact first.
func (s *Solver) Solve(ex Executor, prm *Params) {
	s.setParams(prm)
	if cap(s.totals) < len(s.Contacts) {
		s.totals = make([][2]float64, len(s.Contacts), 2*len(s.Contacts))
	}
	s.totals = s.totals[:len(s.Contacts)]
	s.rest = resize(s.rest, len(s.Sims))
	s.start = resize(s.start, len(s.Sims))
	s.beginCapped()
	t := &s.task
	t.s = s
	t.mode = modeSmall
	ex.For(len(s.small), 1, t)
	t.mode = modeFree
	t.list = s.free
	ex.For(len(s.free), 256, t)
	if s.wide {
		for bias := range s.wideSets {
			for flip := range s.wideSets[bias] {
				s.setWideParams(&s.wideSets[bias][flip], bias == 1, flip == 1)
			}
		}
		// The zero row that static sides of the wide blocks read, at the
		// offset layoutWide gave them.
		s.Bodies = append(s.Bodies[:len(s.Sims)], BodyState{DQ: components.Identity})
	}
	s.place.last = false
	if len(s.largeBodies) > 0 {
		lex := s.place.executor(ex, len(s.largeLinks))
		t0 := time.Now()
		if len(s.groups) > 1 {
			s.solveGroups(lex)
		} else {
			t.g = &s.groups[0]
			s.solveLarge(lex, t)
		}
		if s.badLane.Swap(false) {
			panic("solver: a wide lane addresses a row outside Bodies: call SetContact for every link")
		}
		s.place.record(ex, time.Since(t0), len(s.largeLinks))
		s.forgetLarge()
	}
	if s.wide {
		s.setKinematic(0)
		s.Bodies = s.Bodies[:len(s.Sims)]
	}
}

// solveLarge runs the substeps over the coloured large islands of the
// group t.g (group.go): each stage goes colour by colour, the overflow
// first on one worker (last when the colours are taken backwards). With
// wideKernel the colours are solved eight (or four) contacts at a time
// (wide.go); the results are those of the scalar kernels.
//
// The solve and the relax sweep the colours, and the points of each
// contact, in the order t.flip gives: forwards in the solve of even
// substeps, backwards in their relax, and the other way round in odd ones,
// as solveIsland does with the points. Greedy colouring in link order puts
// the contacts of each body in a fixed order that is not a sweep through
// the pile: in a pyramid of base 20, 176 of the 190 boxes standing on two
// had the support on their right solved before the one on their left.
// With one Gauss-Seidel pass per stage that order leaves a bias the next
// pass does not undo, and at 60 Hz the pile never settled: its top slid
// 1.28 m to the right in 20 s (to the left with the bodies made right to
// left) while an island solved whole in link order slept at step 62. Taken
// back and forth, the pyramid sleeps at step 121 with its top within 1 mm.
func (s *Solver) solveLarge(ex Executor, t *stageTask) {
	if s.halves.colors > 0 {
		s.solveHalves(ex, t)
		return
	}
	g := t.g
	rows := s.largeBodies[g.rows[0]:g.rows[1]]
	if !s.boundFrames(ex, t) {
		return
	}
	s.largeJointStage(ex, t, modePrepare, 0)
	for sub := 0; sub < s.p.substeps; sub++ {
		elapsed := float64(sub) * s.p.h
		t.list = rows
		if sub == 0 {
			t.mode, t.base = modeBoundStart, int(g.rowChunks[0]) // with the integration
			ex.For(int(g.rowChunks[1]-g.rowChunks[0]), HeavyItems, t)
		} else {
			t.mode = modeIntegrateVelocities
			ex.For(len(rows), 0, t)
		}
		t.flip = sub&1 == 1
		s.colorStage(ex, t, modeWarmStart, elapsed)
		s.colorStage(ex, t, modeSolve, elapsed)
		t.list = rows
		t.mode = modeIntegratePositions
		ex.For(len(rows), 0, t)
		t.flip = !t.flip // relax in the other order (see solveContact)
		s.colorStage(ex, t, modeRelax, elapsed+s.p.h)
	}
	s.largeBounds(ex, t)
	s.colorStage(ex, t, modeRestitution, 0)
	s.largeRestLimits(ex, t)
	if s.largeJoints {
		t.list, t.mode = rows, modeCapRows
		ex.For(len(rows), 0, t)
	}
}

// largeBounds sums the step's energy bound of the large islands of t's
// group after the substeps, and applies it where it is exceeded
// (boundlarge.go); with an elastic contact among them, it keeps the
// bodies' speeds before the restitution (keepRest).
func (s *Solver) largeBounds(ex Executor, t *stageTask) {
	g := t.g
	t.mode, t.base = modeBoundSubsteps, int(g.rowChunks[0])
	ex.For(int(g.rowChunks[1]-g.rowChunks[0]), HeavyItems, t)
	if s.largeLimits(g) {
		t.mode, t.base = modeBoundApply, int(g.rowChunks[0])
		ex.For(int(g.rowChunks[1]-g.rowChunks[0]), HeavyItems, t)
	}
	if s.elasticLarge.Load() {
		t.list = s.largeBodies[g.rows[0]:g.rows[1]]
		t.mode = modeKeepRest
		ex.For(len(t.list), 0, t)
	}
}

// largeRestLimits limits what the restitution pass gave the large islands
// of t's group, when one has an elastic contact (limitRest).
func (s *Solver) largeRestLimits(ex Executor, t *stageTask) {
	if g := t.g; s.elasticLarge.Load() {
		t.mode, t.base = modeRestLimit, int(g.islands[0])
		ex.For(int(g.islands[1]-g.islands[0]), 1, t)
	}
}

// colorStage runs one stage over the overflow and the colours of t's
// group, in that order, or with t.flip in the reverse order (the solve and
// the relax; see solveLarge).
func (s *Solver) colorStage(ex Executor, t *stageTask, mode int, elapsed float64) {
	s.largeJointStage(ex, t, mode, elapsed)
	t.mode, t.elapsed = mode, elapsed
	reverse := t.flip && (mode == modeSolve || mode == modeRelax) && !s.forward
	if !reverse {
		s.overflowStage(t)
	}
	s.colorsStage(ex, t, mode, elapsed, reverse)
	if reverse {
		t.mode = mode
		s.overflowStage(t)
	}
}

// largeJointStage runs stage mode (modePrepare, the warm start, the solve
// or the relax) over the joints of the large islands of t's group, before
// their contacts, as in a small island. The only group (all large islands
// together) takes them colour by colour, each colour shared among the
// workers of ex; a group of the many that run one per worker takes them
// island by island. Either order depends on the inputs alone.
func (s *Solver) largeJointStage(ex Executor, t *stageTask, mode int, elapsed float64) {
	if !s.largeJoints || mode == modeRestitution {
		return
	}
	g := t.g
	t.mode, t.jointMode, t.elapsed = modeJoints, mode, elapsed
	if len(s.groups) > 1 {
		for li := g.islands[0]; li < g.islands[1]; li++ {
			joints := s.Islands.Joints(int(s.large[li].island))
			passes := uint8(1)
			if mode == modeSolve || mode == modeRelax {
				passes = s.islandPasses[s.large[li].island]
			}
			for range passes {
				for _, ji := range joints {
					t.joint(&s.Joints[ji])
				}
			}
		}
		return
	}
	passes := uint8(1)
	if mode == modeSolve || mode == modeRelax {
		passes = s.largePasses
	}
	for pass := range passes {
		t.jointPass = pass // each island's joints take their own sweeps
		for k := 0; k+1 < len(s.jointColorStart); k++ {
			t.base = int(s.jointColorStart[k])
			n := int(s.jointColorStart[k+1]) - t.base
			if k == overflowJointColor {
				t.Run(0, n, 0) // their bodies share colours: one at a time
				continue
			}
			ex.For(n, jointGrain, t)
		}
	}
}

// joint runs the stage t.jointMode over joint j.
func (t *stageTask) joint(j *Joint) {
	s := t.s
	p := &s.p
	if s.islandSoft[s.Islands.jointIsland(j)] {
		p = &s.pHub // its island has a hub (jointPasses), and no other
	}
	switch t.jointMode {
	case modePrepare:
		s.prepareJoint(j, p)
	case modeWarmStart:
		s.warmStartJoint(j, p, t.elapsed)
	case modeSolve:
		s.solveJoint(j, p, t.elapsed, true)
	case modeRelax:
		s.solveJoint(j, p, t.elapsed, false)
	}
}

// overflowStage runs the current stage over the overflow contacts of t's
// group, on the calling goroutine.
func (s *Solver) overflowStage(t *stageTask) {
	g := t.g
	if end := s.colorStart[g.colors[0]]; end > g.overflow {
		t.base = int(g.overflow)
		t.Run(0, int(end-g.overflow), 0)
	}
}

// colorsStage runs a stage over the colours of t's group, the last first
// with reverse.
func (s *Solver) colorsStage(ex Executor, t *stageTask, mode int, elapsed float64, reverse bool) {
	if s.wide && (mode == modeSolve || mode == modeRelax) {
		s.setKinematic(elapsed)
	}
	t.mode, t.wp = s.wideStage(mode, t.flip)
	n := int(t.g.colors[1]-t.g.colors[0]) - 1
	s.colorPass(ex, t, int(t.g.colors[0]), n, reverse, mode == modeRestitution)
}

// wideStage returns the mode that runs stage mode over the wide blocks and
// its constants, or mode itself (and nil) with the scalar kernels.
func (s *Solver) wideStage(mode int, flip bool) (int, *wideParams) {
	if !s.wide {
		return mode, nil
	}
	f := 0
	if flip {
		f = 1
	}
	switch mode {
	case modeWarmStart:
		return modeWideWarm, &s.wideSets[0][f]
	case modeSolve:
		return modeWideSolve, &s.wideSets[1][f]
	case modeRelax:
		return modeWideSolve, &s.wideSets[0][f]
	case modeRestitution:
		return modeWideRestitution, nil
	}
	return mode, nil
}

// colorPass runs the current stage of t over the n colour entries from c0
// (colour k at c0+k), the last first with reverse, and with bounces only
// the colours the restitution pass runs: one job per colour, split
// statically. A static split keeps each worker on the same bodies from
// colour to colour and stage to stage (the contacts of a colour are in body
// order): handing blocks out first come first served bounced body rows
// between the cores' caches and made tumbler slower on 2 workers than on 1.
func (s *Solver) colorPass(ex Executor, t *stageTask, c0, n int, reverse, bounces bool) {
	for i := 0; i < n; i++ {
		k := i
		if reverse {
			k = n - 1 - i
		}
		if bounces && !s.restitutes(k) {
			continue
		}
		var m int
		t.base, m = s.colorRange(c0 + k)
		ex.For(m, 0, t)
	}
}

// restituteAll makes the restitution pass run every colour, as if each had
// a contact with restitution; tests set it to check that skipping colours
// changes no result.
var restituteAll = false

// restitutes reports whether the restitution pass must run colour k.
func (s *Solver) restitutes(k int) bool { return restituteAll || s.bounces[k].Load() }

const (
	modeSmall = iota
	modeFree
	modeIntegrateVelocities
	modeIntegratePositions
	modeWarmStart
	modeSolve
	modeRelax
	modeRestitution
	modeWideWarm
	modeWideSolve
	modeWideRestitution
	modeBoundFrame
	modeBoundStart
	modeBoundSubsteps
	modeBoundApply
	modeKeepRest
	modeRestLimit
	modePrepare // the joints' preparation (largeJointStage)
	modeJoints  // a stage over a colour of joints (largeJointStage)
	modeCapRows // the speed caps of the rows of islands with joints (capRows)
)

// stageTask is the one Task of the solver; its fields select the stage. The
// caller runs stages one at a time, so a single value serves them all and
// nothing is allocated per step.
type stageTask struct {
	s       *Solver
	g       *largeGroup // the group of large islands of the coloured stages
	wp      *wideParams // the wide kernels' constants of the group's stage
	mode    int
	list    []int32 // body rows, for the integration stages
	base    int     // first contact (block) of the colour, chunk or island of the stage
	elapsed float64
	flip    bool // solve the points of each contact in reverse order
	// jointMode is the stage modeJoints runs over the joints from base,
	// in sweep jointPass of the stage.
	jointMode int
	jointPass uint8
}

// Run processes items [lo, hi) of the current stage.
func (t *stageTask) Run(lo, hi, _ int) {
	if lo >= hi {
		return // nothing to run; and s.block(t.base+lo) may lie past the last block
	}
	s := t.s
	p := &s.p
	switch t.mode {
	case modeSmall:
		for k := lo; k < hi; k++ {
			s.solveIsland(&s.small[k])
		}
	case modeFree:
		for sub := 0; sub < p.substeps; sub++ {
			integrateVelocities(p, s.Bodies, s.Sims, t.list, lo, hi)
			integratePositions(p, s.Bodies, s.Sims, t.list, lo, hi)
		}
	case modeIntegrateVelocities:
		integrateVelocities(p, s.Bodies, s.Sims, t.list, lo, hi)
	case modeIntegratePositions:
		if s.largeJoints {
			s.capJointedRows(p, t.list[lo:hi])
		}
		integratePositions(p, s.Bodies, s.Sims, t.list, lo, hi)
	case modeWarmStart:
		cs := s.Contacts[t.base+lo : t.base+hi]
		for i := range cs {
			warmStart(&cs[i], s.Bodies)
		}
	case modeSolve, modeRelax:
		bias := t.mode == modeSolve
		cs := s.Contacts[t.base+lo : t.base+hi]
		order := s.Order[t.base+lo : t.base+hi]
		for i := range cs {
			pc := p
			if s.heavyLink[order[i]] {
				pc = &s.pHeavy
			}
			solveContact(&cs[i], s.Bodies, pc, t.elapsed, bias, t.flip)
		}
	case modeRestitution:
		cs := s.Contacts[t.base+lo : t.base+hi]
		for i := range cs {
			applyRestitution(&cs[i], s.Bodies, p, nil)
		}
	case modeWideWarm:
		warmWide(s.block(t.base+lo), hi-lo, s.Bodies, t.wp)
	case modeWideSolve:
		solveWide(s.block(t.base+lo), hi-lo, s.Bodies, t.wp)
	case modeWideRestitution:
		restituteWide(s.block(t.base+lo), hi-lo, s.cold[t.base+lo:t.base+hi], s.Bodies, p)
	case modeBoundFrame:
		s.boundChunks(t.mode, t.base+lo, t.base+hi)
		s.checkLanes(t.g, lo, hi)
	case modeBoundStart, modeBoundSubsteps, modeBoundApply:
		s.boundChunks(t.mode, t.base+lo, t.base+hi)
	case modeKeepRest:
		s.keepRest(t.list[lo:hi])
	case modeCapRows:
		s.capJointedRows(p, t.list[lo:hi])
	case modeJoints:
		for _, ji := range s.jointOrder[t.base+lo : t.base+hi] {
			j := &s.Joints[ji]
			if t.jointPass > 0 && t.jointPass >= s.islandPasses[s.Islands.jointIsland(j)] {
				continue
			}
			t.joint(j)
		}
	case modeRestLimit:
		for k := t.base + lo; k < t.base+hi; k++ {
			if l := &s.large[k]; !l.skip {
				s.limitRest(s.largeBodies[l.start:l.end], l.frame, l.k0, l.kb, l.w)
			}
		}
	}
}

// solveIsland runs the whole step for one island on the calling worker.
func (s *Solver) solveIsland(sm *smallIsland) {
	p := &s.p
	if sm.heavy {
		p = &s.pHeavy
	}
	if s.islandSoft[sm.island] {
		hub := *p
		hub.joint = p.hubJoint
		p = &hub
	}
	bodies := s.Islands.Bodies(int(sm.island))
	cs := s.Contacts[sm.start:sm.end]
	totals := s.totals[sm.start:sm.end]
	clear(totals)
	joints := s.Islands.Joints(int(sm.island))
	frame, anchored, bound := s.islandFrame(s.Order[sm.start:sm.end])
	// The energy bounds count kinetic energy, gravity's work and the
	// push-out: a joint's spring or motor gives energy that they would
	// take back, so a jointed island goes without them.
	bound = bound && len(joints) == 0
	for _, ji := range joints {
		s.prepareJoint(&s.Joints[ji], p)
	}
	var k0 float64
	if bound {
		k0 = s.keepStart(bodies, frame)
	}
	capped := false
	for sub := 0; sub < p.substeps; sub++ {
		elapsed := float64(sub) * p.h
		flip := sub&1 == 1
		integrateVelocities(p, s.Bodies, s.Sims, bodies, 0, len(bodies))
		for _, ji := range joints {
			s.warmStartJoint(&s.Joints[ji], p, elapsed)
		}
		for i := range cs {
			warmStart(&cs[i], s.Bodies)
		}
		for range s.islandPasses[sm.island] {
			for _, ji := range joints {
				s.solveJoint(&s.Joints[ji], p, elapsed, true)
			}
		}
		for i := range cs {
			solveContact(&cs[i], s.Bodies, p, elapsed, true, flip)
		}
		if len(joints) > 0 && capRows(p, s.Bodies, s.Sims, bodies) {
			capped = true
		}
		integratePositions(p, s.Bodies, s.Sims, bodies, 0, len(bodies))
		for range s.islandPasses[sm.island] {
			for _, ji := range joints {
				s.solveJoint(&s.Joints[ji], p, elapsed+p.h, false)
			}
		}
		for i := range cs {
			solveContact(&cs[i], s.Bodies, p, elapsed+p.h, false, !flip)
		}
		// A substep applies each point's accumulated impulse as it ends
		// (warm start plus this substep's changes): the step's total is
		// their sum.
		for i := range cs {
			totals[i][0] += cs[i].Points[0].NormalImpulse
			totals[i][1] += cs[i].Points[1].NormalImpulse
		}
	}
	var kb, w float64
	if bound {
		var A, B float64
		kb, w, A, B = s.stepSums(bodies, frame)
		if limit := k0 + max(w, 0); kb > limit*(1+energyTol) {
			for i := range cs {
				limit += cs[i].pushEnergy(p)
			}
			var a float64
			var limited bool
			if a, kb, limited = s.stepFactor(bodies, frame, anchored, limit, k0, kb, A, B); limited {
				s.blendApply(bodies, s.start, a)
			}
		}
	}
	rest := bound && elastic(cs)
	if rest {
		s.keepRest(bodies)
	}
	for i := range cs {
		applyRestitution(&cs[i], s.Bodies, p, &totals[i])
	}
	if rest {
		s.limitRest(bodies, frame, k0, kb, w)
	}
	if len(joints) > 0 && capRows(p, s.Bodies, s.Sims, bodies) {
		capped = true
	}
	if capped {
		s.forgetSmall(sm, cs)
	}
}

// Link returns the link of c: its bodies and how they move.
func (c *Contact) Link() Link {
	return Link{A: c.A, B: c.B, KindA: c.KindA, KindB: c.KindB, Points: uint8(c.Count)}
}

// Arrange stores contacts prepared in link order (byLink[i] is the contact
// of Links[i]) with [Solver.SetContact]. Call it after BuildIslands; it is
// the simple alternative to preparing and storing each contact directly, as
// package systems does in parallel.
func (s *Solver) Arrange(byLink []Contact) {
	for li := range byLink {
		s.SetContact(li, &byLink[li])
	}
}
