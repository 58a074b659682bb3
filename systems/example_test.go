package systems_test

import (
	"fmt"
	"os"
	"strings"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// A game embeds the physics in its own arche world: create the system set,
// initialise it, spawn bodies, and call Update once per fixed step.
func ExamplePhysics_Update() {
	world := arche.NewWorld()
	physics, err := systems.New(systems.DefaultConfig()) // dt 1/60 s, gravity (0, -10)
	if err != nil {
		panic(err)
	}
	physics.Initialize(&world)
	defer physics.Finalize(&world)

	ground := ecs.DefaultBodyDef()
	ground.Type = components.Static
	ground.Shape = components.Box(20, 0.5) // top face at y = 0
	ground.Position = components.V(0, -0.5)
	if _, err := ecs.NewBody(&world, ground); err != nil {
		panic(err)
	}
	box := ecs.DefaultBodyDef()
	box.Shape = components.Box(0.5, 0.5)
	box.Position = components.V(0, 4)
	crate, err := ecs.NewBody(&world, box)
	if err != nil {
		panic(err)
	}

	transforms := generic.NewMap[components.Transform](&world)
	for step := 1; step <= 120; step++ {
		// Game systems run here and may read or write Transform and Velocity.
		physics.Update(&world)
		if step%40 == 0 {
			fmt.Printf("t=%.2fs y=%.2f\n", float64(step)/60, transforms.Get(crate).P.Y)
		}
	}
	// Output:
	// t=0.67s y=1.76
	// t=1.33s y=0.50
	// t=2.00s y=0.50
}

// TestReadmeShowsExample keeps the README's embedding snippet identical to
// the body of ExamplePhysics_Update, which the tests compile and run.
func TestReadmeShowsExample(t *testing.T) {
	src, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	start := strings.Index(s, "func ExamplePhysics_Update() {\n")
	end := strings.Index(s, "\t// Output:")
	if start < 0 || end < start {
		t.Fatal("ExamplePhysics_Update not found")
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(s[start+len("func ExamplePhysics_Update() {\n"):end], "\n\t"), "\n") {
		lines = append(lines, strings.TrimPrefix(l, "\t"))
	}
	if want := "```go\n" + strings.Join(lines, "\n") + "\n```"; !strings.Contains(string(readme), want) {
		t.Errorf("README.md does not show the body of ExamplePhysics_Update; paste it:\n%s", want)
	}
}
