package systems_test

import (
	"fmt"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// A sensor is a body that collides with nothing and reports what overlaps
// it: after each Update the SensorEvents resource lists the bodies that
// began and ended overlapping a sensor, and SensorOverlaps those that do.
// Here a ball falls through a static trigger zone 2 m tall; a crate that
// ignores the zone's category is never seen.
func ExamplePhysics_SensorOverlaps() {
	world := arche.NewWorld()
	physics, err := systems.New(systems.DefaultConfig())
	if err != nil {
		panic(err)
	}
	physics.Initialize(&world)
	defer physics.Finalize(&world)

	const triggers = 1 << 1
	zoneDef := ecs.DefaultBodyDef()
	zoneDef.Type = components.Static
	zoneDef.Shape = components.Box(2, 1)
	zoneDef.Position = components.V(0, 5) // y from 4 to 6
	zoneDef.Sensor = true
	zoneDef.Filter = components.Filter{Category: triggers}
	zone, err := ecs.NewBody(&world, zoneDef)
	if err != nil {
		panic(err)
	}
	ballDef := ecs.DefaultBodyDef()
	ballDef.Shape = components.Circle(0.25)
	ballDef.Position = components.V(-1, 8)
	ball, err := ecs.NewBody(&world, ballDef)
	if err != nil {
		panic(err)
	}
	crateDef := ballDef
	crateDef.Shape = components.Box(0.25, 0.25)
	crateDef.Position = components.V(1, 8)
	crateDef.Filter = components.Filter{Ignore: triggers}
	if _, err := ecs.NewBody(&world, crateDef); err != nil {
		panic(err)
	}

	events := generic.NewResource[ecs.SensorEvents](&world)
	for step := 1; step <= 60; step++ {
		physics.Update(&world)
		for _, e := range events.Get().Begin {
			in := physics.SensorOverlaps(zone, nil)
			fmt.Printf("step %d: the ball enters: %v; in the zone: %d body, the ball: %v\n", step, e.Visitor == ball, len(in), in[0] == ball)
		}
		for _, e := range events.Get().End {
			fmt.Printf("step %d: the ball leaves: %v\n", step, e.Visitor == ball)
		}
	}
	// Output:
	// step 36: the ball enters: true; in the zone: 1 body, the ball: true
	// step 56: the ball leaves: true
}
