package systems

import (
	"context"
	"fmt"
	"time"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/broadphase"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/narrowphase"
	"github.com/tumble2d/tumble/solver"
)

type bodyFilter = generic.Filter7[components.Transform, components.Velocity, components.Shape,
	components.Material, components.Body, components.Mass, components.Force]

type bodyMap = generic.Map7[components.Transform, components.Velocity, components.Shape,
	components.Material, components.Body, components.Mass, components.Force]

// Physics is the physics system set of one arche world. Its Initialize,
// Update and Finalize methods are the method set of arche-model's System, so
// it plugs into that scheduler, or a game calls them itself: Initialize once,
// Update once per fixed step, Finalize at the end.
//
// ⚠️ Important: while Update runs, no other goroutine may touch the world,
// and the game must have closed its queries.
type Physics struct {
	cfg    Config
	params solver.Params
	pool   *pool
	world  *arche.World

	awakeFilter    *bodyFilter
	sleepingFilter *bodyFilter
	// anyBody finds the entities with a Body component, to report those a
	// game took some of the other body components from.
	anyBody    *generic.Filter1[components.Body]
	bodies     bodyMap
	sleepingID arche.ID
	// sleepingIDs is sleepingID as the argument list of arche's Add and
	// Remove: spreading a kept slice does not allocate, while passing the ID
	// alone allocated a one-element slice for every body put to sleep or
	// woken (38 allocations per step during smash's wave).
	sleepingIDs  []arche.ID
	gravity      generic.Resource[ecs.Gravity]
	profile      generic.Resource[ecs.Profile]
	report       generic.Resource[ecs.Report]
	events       generic.Resource[ecs.ContactEvents]
	jointEvents  generic.Resource[ecs.JointEvents]
	sensorEvents generic.Resource[ecs.SensorEvents]
	lastGravity  components.Vec2
	stepped      bool
	// The solver's speed caps, squared for the linear one: the gather
	// calls Params.CapSpeeds only for the rare body above one.
	capSpeedSq, capSpin float64

	// Moving rows: awake dynamic and kinematic bodies, in query order.
	s       solver.Solver
	ents    []arche.Entity
	proxies []bodyProxy // what the narrow phase reads of each row
	motion  []motion    // and the velocity of each, for closing speeds
	mats    []components.Material
	aabbs   []components.AABB // moving boxes, grown by a step of motion
	reach   []components.AABB // the same grown by two steps: queries of the frozen set

	// Frozen rows: static and sleeping bodies.
	frozen frozenRows

	grid *broadphase.Grid
	// The candidate pairs, in the broad phase's blocks: pair i of the
	// tick is pairBufs[c][i-pairStart[c]] for the block c whose range
	// [pairStart[c], pairStart[c+1]) holds i (numPairs in all).
	pairBufs  [][]broadphase.Pair
	pairStart []int
	// nearFrozen has bit i set when moving row i has a frozen candidate
	// (see continuous); the broad phase's blocks each write their own
	// words.
	nearFrozen []uint64
	// The static bodies near a fast body's path (see continuous), and how
	// many sweeps needed no query (counted for the tests).
	sweepPairs []broadphase.Pair
	sweepSkips int
	// The sleepers near a body the solve sped up (see wakeAhead).
	aheadPairs []broadphase.Pair
	broadTask  broadTask

	narrowTask  narrowTask
	prepareTask prepareTask
	resetTask   cacheResetTask
	storeTask   storeTask
	// unsound lists the rows whose step went beyond float64 this tick, in
	// row order (scatter, forgetImpulses).
	unsound []int32
	// How the three split their items between the workers (balance.go).
	narrowSplit, prepareSplit, storeSplit balance
	manifolds                             []narrowphase.Manifold
	pairEnts                              [][2]arche.Entity
	pairFlags                             []uint8
	pairInfo                              []pairInfo
	touching                              []int32 // pairs with a contact to solve, in pair order
	// Per block of the narrow phase, at the index of its first pair: where
	// it ends, how many touching pairs it packed, whether it woke a body.
	blockEnd, blockTouching []int32
	blockWakes              []bool
	points                  int             // contact points solved this tick
	storePoints             []workerCount   // per worker: points stored
	cache                   [2]contactCache // previous and current tick
	// wokenCache holds, during the contact preparation, the contacts of
	// the islands woken this tick as they fell asleep (sleeper.woken).
	wokenCache contactCache
	cur        int
	ev         contactEvents
	query      queryIndex // for the queries between ticks (query.go)

	sleep  sleeper
	sensor sensors
	errs   []ecs.BodyError
	joints joints
}

// New returns the physics system set for cfg, or an error naming a bad
// setting. Call Initialize before the first Update.
func New(cfg Config) (*Physics, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	if cfg.ProfileContext == nil {
		cfg.ProfileContext = context.Background()
	}
	return &Physics{cfg: cfg}, nil // Initialize sets up the rest
}

// setup gives p, zero, the settings and the state of a new system set
// (Initialize).
func (p *Physics) setup(cfg Config) {
	p.cfg = cfg
	p.params = solver.Params{Dt: cfg.Dt, SubSteps: cfg.SubSteps, Gravity: cfg.Gravity,
		ContactHertz: cfg.ContactHertz, HeavyContactHertz: cfg.HeavyContactHertz, HeavyMassRatio: cfg.HeavyMassRatio,
		ContactDampingRatio: cfg.ContactDampingRatio,
		MaxPushOut:          cfg.MaxPushOut, DeepOverlap: cfg.DeepOverlap, RestitutionThreshold: cfg.RestitutionThreshold,
		MaxLinearSpeed: cfg.MaxLinearSpeed, LargeIslandContacts: cfg.LargeIslandContacts,
		ForwardColorOrder: cfg.ForwardColorOrder}
	p.capSpin = p.params.MaxAngularSpeed()
	p.capSpeedSq = cfg.MaxLinearSpeed * cfg.MaxLinearSpeed
	p.grid = broadphase.NewGrid(cfg.CellSize)
	p.broadTask.ph = p
	p.narrowTask.ph = p
	p.prepareTask.ph = p
	p.resetTask.ph = p
	p.s.Beside = &p.resetTask
	p.storeTask.ph = p
}

// Config returns the settings the system was made with.
func (p *Physics) Config() Config { return p.cfg }

// Initialize registers the physics components, filters and resources on w
// (Gravity from the config, Profile, Report, ContactEvents, SensorEvents and
// JointEvents) and starts the workers. A world
// has one Physics. Called again, it finalizes the first call before it
// starts anew: after arche's World.Reset (which removes the resources), a
// level restart is Initialize and then the new level's bodies.
func (p *Physics) Initialize(w *arche.World) {
	if p.world != nil {
		// Initialized before and not finalized: stop those workers (each
		// Initialize of a level restart leaked a pool of them) and
		// unregister those filters first.
		p.Finalize(p.world)
	}
	// Start from a new state: the sleeping islands, cached contacts and
	// frozen rows of a world that was reset would name entities that the
	// new level reuses.
	cfg := p.cfg
	*p = Physics{}
	p.setup(cfg)
	p.world = w
	p.awakeFilter = generic.NewFilter7[components.Transform, components.Velocity, components.Shape,
		components.Material, components.Body, components.Mass, components.Force]().
		Without(generic.T[components.Sleeping]())
	p.awakeFilter.Register(w)
	p.sleepingFilter = generic.NewFilter7[components.Transform, components.Velocity, components.Shape,
		components.Material, components.Body, components.Mass, components.Force]().
		With(generic.T[components.Sleeping]())
	p.sleepingFilter.Register(w)
	p.anyBody = generic.NewFilter1[components.Body]()
	p.anyBody.Register(w)
	p.joints.init(w)
	p.bodies = generic.NewMap7[components.Transform, components.Velocity, components.Shape,
		components.Material, components.Body, components.Mass, components.Force](w)
	p.sleepingID = arche.ComponentID[components.Sleeping](w)
	p.sleepingIDs = []arche.ID{p.sleepingID}
	p.gravity = generic.NewResource[ecs.Gravity](w)
	if !p.gravity.Has() {
		p.gravity.Add(&ecs.Gravity{V: p.cfg.Gravity})
	}
	p.profile = generic.NewResource[ecs.Profile](w)
	if !p.profile.Has() {
		p.profile.Add(&ecs.Profile{})
	}
	p.report = generic.NewResource[ecs.Report](w)
	if !p.report.Has() {
		p.report.Add(&ecs.Report{})
	}
	p.events = generic.NewResource[ecs.ContactEvents](w)
	if !p.events.Has() {
		p.events.Add(&ecs.ContactEvents{})
	}
	p.jointEvents = generic.NewResource[ecs.JointEvents](w)
	if !p.jointEvents.Has() {
		p.jointEvents.Add(&ecs.JointEvents{})
	}
	p.sensorEvents = generic.NewResource[ecs.SensorEvents](w)
	if !p.sensorEvents.Has() {
		p.sensorEvents.Add(&ecs.SensorEvents{})
	}
	p.sensor.prev, p.sensor.cur = p.sensor.prev[:0], p.sensor.cur[:0]
	p.lastGravity = p.gravity.Get().V
	p.pool = newPool(p.cfg.workers(), p.cfg.ProfileContext, p.cfg.TimeJobs)
	p.storePoints = make([]workerCount, p.pool.Workers())
	p.sleep.init()
}

// Finalize unregisters the filters, removes the resources and stops the
// workers. The bodies stay in the world. Finalize on a Physics that is not
// initialised (never, or finalised already) does nothing.
//
// Panics: if w is not the world given to Initialize. arche numbers filters
// per world, so unregistering them from another world took away that
// world's own physics filters.
func (p *Physics) Finalize(w *arche.World) {
	if p.world == nil {
		return
	}
	if w != p.world {
		panic("tumble: Physics.Finalize on a world it was not initialised with")
	}
	p.awakeFilter.Unregister(w)
	p.sleepingFilter.Unregister(w)
	p.anyBody.Unregister(w)
	p.joints.filter.Unregister(w)
	if p.gravity.Has() {
		p.gravity.Remove()
	}
	if p.profile.Has() {
		p.profile.Remove()
	}
	if p.report.Has() {
		p.report.Remove()
	}
	if p.events.Has() {
		p.events.Remove()
	}
	if p.jointEvents.Has() {
		p.jointEvents.Remove()
	}
	if p.sensorEvents.Has() {
		p.sensorEvents.Remove()
	}
	p.pool.close()
	p.world = nil
}

// maxWakePasses bounds the passes of a tick through gather, broad and narrow
// phase when sleepers must wake at once (see Update); past it they wake next
// tick, as any touched sleeper does.
const maxWakePasses = 3

// Update advances the world by one fixed step of Config.Dt: gather, broad
// phase, narrow phase, islands, solve, sleep, scatter, events (see the
// package documentation). The per-stage times go into the ecs.Profile
// resource and the bodies left out into the ecs.Report resource. It panics
// before Initialize, after Finalize, and on a world other than the one it
// was initialised with: mistakes of the game's setup, not of its data.
func (p *Physics) Update(w *arche.World) {
	if p.world == nil {
		panic("tumble: Physics.Update before Physics.Initialize, or after Physics.Finalize")
	}
	if w != p.world {
		panic("tumble: Physics.Update on a world it was not initialised with")
	}
	if !p.profile.Has() {
		panic("tumble: Physics.Update: the world has lost the physics resources (arche's World.Reset removes them): call Physics.Initialize again")
	}
	prof := p.profile.Get()
	*prof = ecs.Profile{}
	t0 := time.Now()
	mark := t0
	stage := func(s ecs.Stage) {
		now := time.Now()
		prof.Stages[s] += now.Sub(mark)
		mark = now
	}

	p.query.built = false
	p.pool.setStage(ecs.StageGather)
	p.pool.spent = [ecs.NumStages]ecs.StageWork{}
	// A gravity written into the resource directly is not checked by
	// SetGravity: a NaN one made every dynamic body's step NaN, and each
	// was reported as a body whose values were beyond float64.
	gravityNote := ""
	if g := p.gravity.Get().V; g.IsFinite() {
		p.params.Gravity = g
	} else {
		gravityNote = fmt.Sprintf("%v is NaN or infinite (set it with ecs.SetGravity); the tick kept %v", g, p.params.Gravity)
	}
	p.errs = p.errs[:0]
	p.applyWakes(w)
	for pass := 1; ; pass++ {
		if p.gather(w) {
			p.gather(w)
		}
		stage(ecs.StageGather)

		p.pool.setStage(ecs.StageBroadPhase)
		p.broadPhase()
		stage(ecs.StageBroadPhase)

		p.pool.setStage(ecs.StageNarrowPhase)
		p.sleep.pending, p.sleep.urgent = p.sleep.pending[:0], p.sleep.urgent[:0]
		p.narrowPhase()
		stage(ecs.StageNarrowPhase)
		// A moving body wakes a sleeper a tick before it can reach it
		// (see collidePair), but one that appeared, was moved or was sped
		// up next to a sleeper reaches it this tick: a box created 1 cm
		// above a sleeping one at 20 m/s went 0.33 m into it before it
		// woke. Such sleepers are woken now and the tick starts again
		// (Box2D v3 wakes the sleeping island of a contact that begins
		// touching before it solves, in b2LinkContact). Each pass wakes
		// whole islands, so a second pass rarely finds more.
		if len(p.sleep.urgent) == 0 {
			break
		}
		if pass == maxWakePasses {
			p.sleep.pending = append(p.sleep.pending, p.sleep.urgent...)
			break
		}
		p.pool.setStage(ecs.StageGather)
		p.sleep.wake(w, p.sleep.urgent, p.sleepingIDs)
		prof.Rewakes++
	}

	p.pool.setStage(ecs.StageIslands)
	st := p.s.BuildIslandsOn(p.pool, &p.params)
	stage(ecs.StageIslands)

	p.pool.setStage(ecs.StageSolve)
	p.prepareContacts()
	p.s.Solve(p.pool, &p.params)
	p.storeContacts()
	prof.Swept, prof.Impacts = p.continuous()
	stage(ecs.StageSolve)

	p.pool.setStage(ecs.StageSleep)
	p.updateSleep()
	stage(ecs.StageSleep)

	p.pool.setStage(ecs.StageScatter)
	p.scatter(w)
	stage(ecs.StageScatter)

	p.pool.setStage(ecs.StageEvents)
	rep := p.report.Get()
	rep.Errors = append(rep.Errors[:0], p.errs...)
	rep.Joints = append(rep.Joints[:0], p.joints.errs...)
	rep.Gravity = gravityNote
	p.publishEvents()
	je := p.jointEvents.Get()
	je.Exceeded = append(je.Exceeded[:0], p.joints.exceeded...)
	prof.Bodies = len(p.ents)
	prof.Frozen = len(p.frozen.ents)
	prof.Pairs = p.numPairs()
	prof.Contacts = len(p.s.Contacts)
	prof.Joints = len(p.s.Joints)
	prof.Points = p.points
	prof.Islands = st.Islands
	prof.Colored = st.Colored
	prof.Colors = st.Colors
	prof.ColoredOnCaller = p.s.ColoredOnCaller()
	prof.Work = p.pool.spent
	p.stepped = true
	p.sense(p.sensorEvents.Get())
	stage(ecs.StageEvents)
	prof.Step = time.Since(t0)
	p.pool.clearStage()
}

// Stages returns the names of the stages of one tick, in order.
func (p *Physics) Stages() []ecs.Stage {
	out := make([]ecs.Stage, ecs.NumStages)
	for i := range out {
		out[i] = ecs.Stage(i)
	}
	return out
}

// Workers returns the number of workers sharing each step: Config.Workers,
// or GOMAXPROCS for 0, capped at 255 (a step has no use for more). Before
// Initialize it tells what Initialize will start.
func (p *Physics) Workers() int {
	if p.pool == nil {
		return p.cfg.workers()
	}
	return p.pool.workers
}
