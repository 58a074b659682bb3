package systems_test

import (
	"fmt"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// After each Update a game reads the ContactEvents resource: the contacts
// that began, the hard hits (above Config.HitSpeed), and the contacts that
// ended. Here a ball with restitution 0.5 falls 2 m onto the ground and
// bounces.
func ExampleConfig_contactEvents() {
	world := arche.NewWorld()
	physics, err := systems.New(systems.DefaultConfig())
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
	ball := ecs.DefaultBodyDef()
	ball.Shape = components.Circle(0.25)
	ball.Position = components.V(0, 2.25)
	ball.Restitution = 0.5
	if _, err := ecs.NewBody(&world, ball); err != nil {
		panic(err)
	}

	events := generic.NewResource[ecs.ContactEvents](&world)
	for step := 1; step <= 100; step++ {
		physics.Update(&world)
		ev := events.Get()
		for range ev.Begin {
			fmt.Printf("step %d: begin\n", step)
		}
		for _, h := range ev.Hit {
			fmt.Printf("step %d: hit at %.2f m/s\n", step, h.Speed)
		}
		for range ev.End {
			fmt.Printf("step %d: end\n", step)
		}
	}
	// A contact begins up to the speculative distance before the surfaces
	// meet (step 94) and ends once the rebound has carried them apart.

	// Output:
	// step 38: begin
	// step 38: hit at 6.30 m/s
	// step 40: end
	// step 76: begin
	// step 76: hit at 3.11 m/s
	// step 78: end
	// step 94: begin
	// step 95: hit at 1.51 m/s
	// step 99: end
}
