package systems_test

import (
	"fmt"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// A game that wants Box2D v3.2's contact behaviour (30 Hz contacts, colours
// swept in one order) starts from Box2DConfig. Here a pyramid of base 16
// settles: its top box ends about 2 cm lower (Box2D v3.2: 1.9 cm), and the
// pyramid falls asleep within a second (DefaultConfig: 0.5 cm and 1.4 s).
func ExampleBox2DConfig() {
	for _, cfg := range []systems.Config{systems.Box2DConfig(), systems.DefaultConfig()} {
		world := arche.NewWorld()
		physics, err := systems.New(cfg)
		if err != nil {
			panic(err)
		}
		physics.Initialize(&world)

		ground := ecs.DefaultBodyDef()
		ground.Type = components.Static
		ground.Shape = components.Box(40, 0.5)
		ground.Position = components.V(0, -0.5)
		if _, err := ecs.NewBody(&world, ground); err != nil {
			panic(err)
		}
		var top arche.Entity
		for row := 0; row < 16; row++ {
			for i := 0; i < 16-row; i++ {
				box := ecs.DefaultBodyDef()
				box.Shape = components.Box(0.5, 0.5)
				box.Position = components.V(float64(i)-float64(15-row)/2, 0.5+float64(row))
				if top, err = ecs.NewBody(&world, box); err != nil {
					panic(err)
				}
			}
		}
		steps := 0
		for ; steps < 600 && !ecs.IsSleeping(&world, top); steps++ {
			physics.Update(&world)
		}
		transforms := generic.NewMap[components.Transform](&world)
		y := transforms.Get(top).P.Y
		fmt.Printf("Hz %.0f: top %.1f cm lower, asleep within %.1f s\n", cfg.ContactHertz, (15.5-y)*100, float64((steps+29)/30)/2)
		physics.Finalize(&world)
	}
	// Output:
	// Hz 30: top 1.9 cm lower, asleep within 1.0 s
	// Hz 60: top 0.5 cm lower, asleep within 1.5 s
}
