package systems_test

import (
	"math/rand/v2"
	"testing"

	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// TestProfileWorkWithTimeJobs checks ecs.Profile.Work on a pile of 300
// bodies: zero on 1 worker and without Config.TimeJobs; with it on 2
// workers, the narrow phase's one job a tick (from 32 pairs) and the
// solve's jobs counted,
// every stage's jobs within the stage's time and the caller's share within
// its jobs'. Timing the jobs changes no result: the pile's transforms are the
// same bits either way.
func TestProfileWorkWithTimeJobs(t *testing.T) {
	type run struct {
		workers int
		timed   bool
	}
	var want [2]float64
	for i, r := range []run{{1, false}, {1, true}, {2, false}, {2, true}} {
		s := newSim(t, func(c *systems.Config) {
			c.Workers, c.TimeJobs = r.workers, r.timed
			c.LargeIslandContacts = 32 // coloured islands, whose solve hands out jobs
		})
		containerScene(s, 10)
		es, err := ecs.NewBodies(s.w, pileDefs(rand.New(rand.NewPCG(5, 6)), 300, 20, 0.6, 0.2), nil)
		if err != nil {
			t.Fatal(err)
		}
		solveJobs, narrowJobs := 0, 0
		for tick := 0; tick < 60; tick++ {
			s.run(1)
			prof := s.profile()
			for st, w := range prof.Work {
				if w.Wall > prof.Stages[st] || w.Caller > w.Wall || w.Others > w.Wall {
					t.Fatalf("%+v tick %d stage %v: jobs %+v beyond the stage's %v", r, tick, ecs.Stage(st), w, prof.Stages[st])
				}
			}
			if !r.timed || r.workers == 1 {
				if prof.Work != ([ecs.NumStages]ecs.StageWork{}) {
					t.Fatalf("%+v tick %d: Work %+v, want zero", r, tick, prof.Work)
				}
				continue
			}
			// Fewer than 32 pairs run on the caller alone (pool.run).
			if want := min(prof.Pairs/32, 1); prof.Rewakes == 0 && prof.Work[ecs.StageNarrowPhase].Jobs != want {
				t.Fatalf("%+v tick %d: %d narrow-phase jobs counted for %d pairs, want %d", r, tick, prof.Work[ecs.StageNarrowPhase].Jobs, prof.Pairs, want)
			}
			narrowJobs += prof.Work[ecs.StageNarrowPhase].Jobs
			solveJobs += prof.Work[ecs.StageSolve].Jobs
		}
		if r.timed && r.workers == 2 && (solveJobs == 0 || narrowJobs < 30) {
			t.Errorf("%+v: %d solve and %d narrow-phase jobs counted in 60 ticks", r, solveJobs, narrowJobs)
		}
		p := s.pos(es[len(es)-1])
		if i < 2 {
			want = [2]float64{p.X, p.Y}
		} else if [2]float64{p.X, p.Y} != want {
			t.Errorf("%+v: last body at %v, want %v as on 1 worker", r, p, want)
		}
		if i%2 == 1 && [2]float64{p.X, p.Y} != want {
			t.Errorf("%+v: last body at %v, want %v as untimed", r, p, want)
		}
	}
}
