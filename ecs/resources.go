package ecs

import (
	"time"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
)

// Gravity is the world resource holding the gravitational acceleration in
// m/s^2. The physics system adds it in Initialize; games change it between
// ticks with [SetGravity] (the "Falling Bricks" demo turns it as the tablet
// turns) and the next tick uses the new value.
type Gravity struct{ V components.Vec2 }

// Stage names one stage of the physics tick, in pipeline order.
type Stage int

// The stages of one tick, in the order they run.
const (
	StageGather Stage = iota
	StageBroadPhase
	StageNarrowPhase
	StageIslands
	StageSolve
	StageSleep
	StageScatter
	StageEvents
	NumStages
)

var stageNames = [NumStages]string{"gather", "broadphase", "narrowphase", "islands", "solve", "sleep", "scatter", "events"}

// String returns the stage's short name, as used in pprof labels and the
// stress tool's table.
func (s Stage) String() string {
	if s < 0 || s >= NumStages {
		return "invalid"
	}
	return stageNames[s]
}

// Profile is the world resource with the wall time of each stage of the last
// tick and the counters of what it worked on. It is overwritten by every
// Update.
type Profile struct {
	Stages [NumStages]time.Duration
	// Work is, per stage, what the jobs handed to the workers took (see
	// StageWork), with Config.TimeJobs; zero without it, and on 1 worker,
	// where no job is handed out.
	Work     [NumStages]StageWork
	Step     time.Duration // whole tick
	Bodies   int           // awake dynamic and moving kinematic bodies simulated
	Frozen   int           // static, resting kinematic and sleeping bodies
	Pairs    int           // broad-phase candidate pairs
	Contacts int           // touching manifolds (at least one point) solved this tick: a sleeping island's are not counted
	Points   int           // contact points
	Islands  int           // islands of awake dynamic bodies
	Colored  int           // contact constraints solved by graph colour (large islands)
	Colors   int           // colours used by the large-island graph
	Joints   int           // joints solved (with at least one awake dynamic body)
	// Swept is the number of fast bodies swept against the static bodies
	// along their path this step (continuous collision), and Impacts the
	// number of those moved back to the time they would have hit one.
	Swept, Impacts int
	// Rewakes is the number of times the tick went back to the gather
	// because a moving body was about to touch a sleeping one this tick (a
	// body created, moved or sped up next to it); 0 in a settled scene.
	Rewakes int
	// ColoredOnCaller is set when the coloured contacts were solved on the
	// stepping goroutine alone although there are more workers: the solver
	// times both placements now and then and keeps the faster one (see
	// docs/architecture.md, "Where the coloured solve runs"). The results are the same bits either way.
	ColoredOnCaller bool
}

// StageWork is what the parallel jobs of one stage took in a tick: how
// many the stepping goroutine (the caller) handed out, their wall time from
// announcing each to the last worker leaving it, and the time the caller and
// the other workers spent running items of them. Waiting for a job, or for
// the others to finish theirs, is not counted.
//
// The stage's time less Wall is what the caller ran alone; Wall less Caller
// is what it waited for the others within the jobs. Caller + Others, plus
// what the caller ran alone, against the stage's time on 1 worker, is what
// sharing the stage costs: on a host whose cores pass a cache line there and
// back in about 1 us, reading the rows the other core wrote made tumbler's
// stages 12-25 % dearer on 2 workers (docs/performance.md: "Where a second
// worker's time goes"). Physics fills it only with Config.TimeJobs.
type StageWork struct {
	Jobs                 int
	Wall, Caller, Others time.Duration
}

// BodyError says why a body was left out of a tick: its components held a
// value the engine cannot simulate (NaN, Inf, a non-unit rotation, a dynamic
// body without mass), or finite values beyond float64's range made its step
// NaN or infinite (Field "Transform"). The body is kept, frozen, until the
// game fixes it. One refused for a bad component value stands meanwhile as
// a static body where its pose and shape are usable, so that what rests on
// it stays, with a friction and a restitution of 0 where its own are bad;
// one with a bad pose or shape is not solid.
type BodyError struct {
	Entity arche.Entity
	Field  string
	Reason string
}

// Error returns a message naming the entity and the field.
func (e BodyError) Error() string {
	return "tumble: body " + entityString(e.Entity) + ": " + e.Field + " " + e.Reason
}

// Report is the world resource with what the last tick refused: bodies left
// out because of bad component values. It is overwritten by every Update and
// valid until the next one.
type Report struct {
	Errors []BodyError
	// Joints lists the joints left out: a bad spec, or a body removed or
	// left out itself (see [CheckJoint]).
	Joints []JointError
	// Gravity says why the tick did not use the [Gravity] resource: a NaN
	// or infinite value written into it directly ([SetGravity] refuses
	// one). The tick then kept the last gravity it could use. Empty when
	// it used the resource.
	Gravity string
}

// SetGravity sets the world gravity used from the next tick on. It returns an
// error for a non-finite value or a world without the physics resources.
func SetGravity(w *arche.World, g components.Vec2) error {
	if !g.IsFinite() {
		return errorf("gravity %v is NaN or infinite", g)
	}
	id := arche.ResourceID[Gravity](w)
	res, ok := w.Resources().Get(id).(*Gravity)
	if !ok || res == nil {
		return errorf("world has no Gravity resource: call Physics.Initialize first")
	}
	res.V = g
	return nil
}

// GetGravity returns the world gravity, or zero if the physics has not been
// initialised on w.
func GetGravity(w *arche.World) components.Vec2 {
	id := arche.ResourceID[Gravity](w)
	if res, ok := w.Resources().Get(id).(*Gravity); ok && res != nil {
		return res.V
	}
	return components.Vec2{}
}
