package ecs_test

import (
	"fmt"
	"math"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// A joint is an entity with an ecs.Joint component naming two bodies. Here
// a 1 m bar hangs from a static hook on a revolute joint, is let go level,
// and swings down; a motor and a limit would be two fields more (see
// components.JointSpec).
func ExampleNewJoint() {
	world := arche.NewWorld()
	physics, err := systems.New(systems.DefaultConfig())
	if err != nil {
		panic(err)
	}
	physics.Initialize(&world)
	defer physics.Finalize(&world)

	hookDef := ecs.DefaultBodyDef()
	hookDef.Type = components.Static
	hookDef.Shape = components.Box(0.05, 0.05)
	hookDef.Position = components.V(0, 3)
	hook, err := ecs.NewBody(&world, hookDef)
	if err != nil {
		panic(err)
	}
	barDef := ecs.DefaultBodyDef()
	barDef.Shape = components.Box(0.5, 0.05)
	barDef.Position = components.V(0.5, 3) // its left end at the hook
	bar, err := ecs.NewBody(&world, barDef)
	if err != nil {
		panic(err)
	}

	// Pin the bar to the hook at the hook's centre, as they stand now.
	pin, err := ecs.RevoluteJoint(&world, hook, bar, components.V(0, 3))
	if err != nil {
		panic(err)
	}
	if _, err := ecs.NewJoint(&world, pin); err != nil {
		panic(err)
	}

	poses := generic.NewMap[components.Transform](&world)
	for step := 1; step <= 60; step++ {
		physics.Update(&world)
		if step%20 == 0 {
			t := poses.Get(bar)
			fmt.Printf("t = %.2f s: bar at %5.2f degrees, centre %.2f m from the hook\n",
				float64(step)/60, t.Angle()*180/math.Pi, t.P.Sub(components.V(0, 3)).Len())
		}
	}
	// It keeps its length and swings through the bottom (-90 degrees) up to
	// level on the other side.

	// Output:
	// t = 0.33 s: bar at -47.09 degrees, centre 0.50 m from the hook
	// t = 0.67 s: bar at -144.26 degrees, centre 0.50 m from the hook
	// t = 1.00 s: bar at -179.13 degrees, centre 0.50 m from the hook
}

// A mouse joint drags a body: the game picks the body under the cursor
// (Physics.OverlapAABB with a zero-size box), joins it to the world at
// that point, and moves the joint's world anchor with the cursor each
// tick. Here a box resting on the ground is lifted 2 m by its corner.
func ExampleMouseJoint() {
	world := arche.NewWorld()
	physics, err := systems.New(systems.DefaultConfig())
	if err != nil {
		panic(err)
	}
	physics.Initialize(&world)
	defer physics.Finalize(&world)

	groundDef := ecs.DefaultBodyDef()
	groundDef.Type = components.Static
	groundDef.Shape = components.Box(10, 0.5)
	groundDef.Position = components.V(0, -0.5)
	if _, err := ecs.NewBody(&world, groundDef); err != nil {
		panic(err)
	}
	boxDef := ecs.DefaultBodyDef()
	boxDef.Shape = components.Box(0.5, 0.5)
	boxDef.Position = components.V(0, 0.5)
	if _, err := ecs.NewBody(&world, boxDef); err != nil {
		panic(err)
	}
	physics.Update(&world)

	cursor := components.V(0.4, 0.9) // near the box's top right corner
	picked := physics.OverlapAABB(components.AABB{Min: cursor, Max: cursor}, nil, nil)
	drag, err := ecs.MouseJoint(&world, picked[0], cursor)
	if err != nil {
		panic(err)
	}
	handle, err := ecs.NewJoint(&world, drag)
	if err != nil {
		panic(err)
	}
	for step := 1; step <= 120; step++ {
		if step <= 60 { // the cursor rises 2 m in a second, then stays
			cursor.Y += 2.0 / 60
		}
		j, err := ecs.JointOf(&world, handle)
		if err != nil {
			panic(err)
		}
		j.LocalAnchorA = cursor
		physics.Update(&world)
	}
	poses := generic.NewMap[components.Transform](&world)
	grip := poses.Get(picked[0]).Apply(drag.LocalAnchorB)
	fmt.Printf("the grip is %.2f m from the cursor\n", grip.Sub(cursor).Len())
	// Output:
	// the grip is 0.01 m from the cursor
}

// A motor joint to the world with no spring is top-down friction: seen
// from above, with no gravity, a puck of 1 kg sliding at 4 m/s is slowed
// at up to 2 N, so at 2 m/s^2, and stops after 2 s. Giving the joint a
// spring (Hertz) and moving LocalAnchorA would lead the puck along a path
// instead.
func ExampleMotorJoint() {
	world := arche.NewWorld()
	cfg := systems.DefaultConfig()
	cfg.Gravity = components.Vec2{}
	physics, err := systems.New(cfg)
	if err != nil {
		panic(err)
	}
	physics.Initialize(&world)
	defer physics.Finalize(&world)

	puckDef := ecs.DefaultBodyDef()
	puckDef.Shape = components.Circle(0.5)
	puckDef.Mass = 1
	puckDef.LinearVelocity = components.V(4, 0)
	puck, err := ecs.NewBody(&world, puckDef)
	if err != nil {
		panic(err)
	}
	friction, err := ecs.MotorJoint(&world, arche.Entity{}, puck, 2, 0.1)
	if err != nil {
		panic(err)
	}
	if _, err := ecs.NewJoint(&world, friction); err != nil {
		panic(err)
	}

	vel := generic.NewMap[components.Velocity](&world)
	poses := generic.NewMap[components.Transform](&world)
	for step := 1; step <= 180; step++ {
		physics.Update(&world)
		if step%60 == 0 {
			fmt.Printf("t = %.0f s: %.2f m/s at x = %.2f m\n", float64(step)/60, vel.Get(puck).Lin.X, poses.Get(puck).P.X)
		}
	}
	// It stops where Coulomb friction would stop it: x = v^2 / (2 a) = 4 m.

	// Output:
	// t = 1 s: 2.00 m/s at x = 3.00 m
	// t = 2 s: 0.00 m/s at x = 3.99 m
	// t = 3 s: 0.00 m/s at x = 3.99 m
}
