package systems_test

import (
	"fmt"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// With TimeJobs, the Profile resource tells, per stage, how many jobs the
// stepping goroutine handed to the workers and how long the caller and the
// others ran items in them: what sharing a stage between cores costs (see
// ecs.StageWork). The times vary from run to run; the job counts do not:
// the gather is the caller's alone, 200 bodies are one broad-phase block
// (which the caller runs alone too), and the narrow phase is one job.
func ExampleConfig_timeJobs() {
	cfg := systems.DefaultConfig()
	cfg.Workers, cfg.TimeJobs = 2, true
	world := arche.NewWorld()
	physics, err := systems.New(cfg)
	if err != nil {
		panic(err)
	}
	physics.Initialize(&world)
	defer physics.Finalize(&world)

	ground := ecs.DefaultBodyDef()
	ground.Type = components.Static
	ground.Shape = components.Box(20, 0.5)
	ground.Position = components.V(0, -0.5)
	if _, err := ecs.NewBody(&world, ground); err != nil {
		panic(err)
	}
	box := ecs.DefaultBodyDef()
	box.Shape = components.Box(0.25, 0.25)
	for i := 0; i < 200; i++ { // a wall of boxes resting on each other
		box.Position = components.V(-5+0.5*float64(i%20), 0.25+0.5*float64(i/20))
		if _, err := ecs.NewBody(&world, box); err != nil {
			panic(err)
		}
	}
	for step := 0; step < 10; step++ {
		physics.Update(&world)
	}

	res := generic.NewResource[ecs.Profile](&world)
	prof := res.Get()
	for s := ecs.StageGather; s <= ecs.StageNarrowPhase; s++ {
		w := prof.Work[s]
		fmt.Printf("%-11s %d jobs, within their wall time: %v\n", s, w.Jobs, w.Caller <= w.Wall && w.Others <= w.Wall)
	}
	// Output:
	// gather      0 jobs, within their wall time: true
	// broadphase  0 jobs, within their wall time: true
	// narrowphase 1 jobs, within their wall time: true
}
