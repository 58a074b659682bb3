package bench

import (
	"fmt"
	"testing"
	"time"
)

// BenchmarkScene runs every canonical scene for its default number of ticks
// per iteration, on 1 and 2 workers, and reports the mean wall time of a
// tick as ms/step. The build and the first tick are excluded from the timing
// (and from ns/op and allocs/op), as scenes.md asks.
//
//	go test -run '^$' -bench 'Scene/large_pyramid' ./bench
func BenchmarkScene(b *testing.B) {
	for _, s := range Scenes() {
		for _, workers := range []int{1, 2} {
			b.Run(fmt.Sprintf("%s/workers=%d", s.Name, workers), func(b *testing.B) {
				b.ReportAllocs()
				b.StopTimer()
				var total time.Duration
				timed, logged := 0, false
				for i := 0; i < b.N; i++ {
					r, err := Run(s, Options{Workers: workers, Warmup: DefaultWarmup, Timer: b})
					if err != nil {
						b.Fatal(err)
					}
					if !r.Health.OK && !logged {
						b.Logf("%s: health %v", s.Name, r.Health)
						logged = true
					}
					total += r.Total
					timed += r.Timed
				}
				b.ReportMetric(float64(total)/1e6/float64(timed), "ms/step")
			})
		}
	}
}
