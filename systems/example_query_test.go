package systems_test

import (
	"fmt"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// Between ticks a game casts rays and asks what lies in a region: here a
// look down from above a crate on the ground, one that passes through the
// crate, and the bodies in a box around the crate.
func ExamplePhysics_CastRay() {
	world := arche.NewWorld()
	physics, err := systems.New(systems.DefaultConfig())
	if err != nil {
		panic(err)
	}
	physics.Initialize(&world)
	defer physics.Finalize(&world)

	groundDef := ecs.DefaultBodyDef()
	groundDef.Type = components.Static
	groundDef.Shape = components.Box(20, 0.5)
	groundDef.Position = components.V(0, -0.5)
	ground, err := ecs.NewBody(&world, groundDef)
	if err != nil {
		panic(err)
	}
	crateDef := ecs.DefaultBodyDef()
	crateDef.Shape = components.Box(0.5, 0.5)
	crateDef.Position = components.V(2, 0.5)
	crate, err := ecs.NewBody(&world, crateDef)
	if err != nil {
		panic(err)
	}
	name := map[arche.Entity]string{ground: "ground", crate: "crate"}
	for range 60 {
		physics.Update(&world)
	}

	// From 10 m up, straight down onto the crate.
	if hit, ok := physics.CastRay(components.V(2, 10), components.V(0, -20), nil); ok {
		fmt.Printf("%s at y=%.2f, normal pointing up: %v\n", name[hit.Entity], hit.Point.Y, hit.Normal.Y > 0.999)
	}
	// The same ray, passing through the crate.
	notCrate := func(e arche.Entity) bool { return e != crate }
	if hit, ok := physics.CastRay(components.V(2, 10), components.V(0, -20), notCrate); ok {
		fmt.Printf("%s at y=%.2f\n", name[hit.Entity], hit.Point.Y)
	}
	// What lies within 1 m of the crate's centre.
	for _, e := range physics.OverlapAABB(components.AABB{Min: components.V(1, -0.5), Max: components.V(3, 1.5)}, nil, nil) {
		fmt.Println("in the box:", name[e])
	}
	// Output:
	// crate at y=1.00, normal pointing up: true
	// ground at y=0.00
	// in the box: ground
	// in the box: crate
}
