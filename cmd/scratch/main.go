package main

import (
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"time"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

func main() {
	workers := flag.Int("w", 1, "")
	steps := flag.Int("n", 500, "")
	base := flag.Int("base", 100, "")
	hz := flag.Float64("hz", 30, "")
	sub := flag.Int("sub", 4, "")
	large := flag.Int("large", 64, "")
	flag.Parse()
	f, _ := os.Create("/tmp/cpu.prof")
	pprof.StartCPUProfile(f)
	defer pprof.StopCPUProfile()
	w := arche.NewWorld()
	cfg := systems.DefaultConfig()
	cfg.Workers = *workers
	cfg.Sleep = false
	cfg.ContactHertz = *hz
	cfg.SubSteps = *sub
	cfg.LargeIslandContacts = *large
	ph, _ := systems.New(cfg)
	ph.Initialize(&w)
	g := ecs.DefaultBodyDef()
	g.Type = components.Static
	g.Shape = components.Box(100, 1)
	g.Position = components.V(0, -1)
	ecs.NewBody(&w, g)
	var defs []ecs.BodyDef
	n := *base
	for i := 0; i < n; i++ {
		for j := i; j < n; j++ {
			d := ecs.DefaultBodyDef()
			d.Shape = components.Box(0.5, 0.5)
			d.Position = components.V(float64(i+1)*0.5+float64(j-i)-float64(n)/2, float64(i)+0.5)
			defs = append(defs, d)
		}
	}
	ents, err := ecs.NewBodies(&w, defs, nil)
	if err != nil {
		panic(err)
	}
	top := ents[len(ents)-1]
	tm := generic.NewMap[components.Transform](&w)
	y0 := tm.Get(top).P.Y
	ph.Update(&w)
	prof := generic.NewResource[ecs.Profile](&w)
	var stages [ecs.NumStages]time.Duration
	t0 := time.Now()
	for s := 1; s < *steps; s++ {
		ph.Update(&w)
		for k := range stages {
			stages[k] += prof.Get().Stages[k]
		}
		if s%100 == 0 {
			fmt.Printf("step %d sag %.4f contacts %d colors %d colored %d\n", s, y0-tm.Get(top).P.Y, prof.Get().Contacts, prof.Get().Colors, prof.Get().Colored)
		}
	}
	el := time.Since(t0)
	fmt.Printf("ms/step %.3f sag %.4f\n", float64(el.Microseconds())/1000/float64(*steps-1), y0-tm.Get(top).P.Y)
	for k := range stages {
		fmt.Printf("  %-12s %.3f\n", ecs.Stage(k), float64(stages[k].Microseconds())/1000/float64(*steps-1))
	}
}
