package bench_test

import (
	"fmt"

	"github.com/tumble2d/tumble/bench"
)

// ExampleRun runs the first 30 ticks of large_pyramid on one worker, the
// first untimed, and reads the result: the health check and the checksum
// of the final transforms, the same on any number of workers.
func ExampleRun() {
	scene, err := bench.Lookup("large_pyramid")
	if err != nil {
		panic(err)
	}
	r, err := bench.Run(scene, bench.Options{Workers: 1, Steps: 30, Warmup: bench.DefaultWarmup})
	if err != nil {
		panic(err)
	}
	fmt.Println(r.Scene, r.Bodies, "bodies,", r.Timed, "timed ticks, healthy:", r.Health.OK)
	// Output: large_pyramid 5051 bodies, 29 timed ticks, healthy: true
}

// ExampleRunSideBySide runs tumbler on 1 and 2 workers side by side, 10
// ticks each in turn, so that whatever the host does meanwhile falls on
// both; the two end in the same state.
func ExampleRunSideBySide() {
	scene, err := bench.Lookup("tumbler")
	if err != nil {
		panic(err)
	}
	opts := []bench.Options{{Workers: 1, Steps: 40, Warmup: 1}, {Workers: 2, Steps: 40, Warmup: 1}}
	rs, err := bench.RunSideBySide(scene, opts, 10)
	if err != nil {
		panic(err)
	}
	for _, r := range rs {
		fmt.Println(r.Workers, "workers:", r.Timed, "timed ticks")
	}
	fmt.Println("same final state:", rs[0].Checksum == rs[1].Checksum)
	// Output:
	// 1 workers: 39 timed ticks
	// 2 workers: 39 timed ticks
	// same final state: true
}
