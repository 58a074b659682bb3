package systems_test

import (
	"fmt"
	"math"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/systems"
)

// TestPhysicsHeavyOnLightPlank: a 1 x 1 m box 75 and 250 times heavier than
// the 4 x 0.1 m plank it lies on comes to rest and sleeps, sunk into the
// plank by no more than the 30 Hz contact gives (penetration = r g /
// omega^2 for mass ratio r: 2.1 cm at 75, 7 cm at 250, less the plank's
// share). At 60 Hz, the heavy softness turned off, the box bounced about
// 5 cm and never slept.
//
// The same holds with Config.DeepOverlap set, which heavy islands ignore.
func TestPhysicsHeavyOnLightPlank(t *testing.T) {
	for _, c := range []struct{ ratio, deep float64 }{{75, 0}, {250, 0}, {75, 0.01}, {250, 0.01}} {
		ratio := c.ratio
		s := newSim(t, func(cfg *systems.Config) { cfg.DeepOverlap = c.deep })
		s.add(ground())
		plank := s.add(dynBox(0, 0.05, 2, 0.05))
		def := dynBox(0, 0.6, 0.5, 0.5)
		def.Density = ratio * 0.4 // the plank weighs 0.4 kg
		box := s.add(def)
		s.run(600)
		if !s.asleep(box) || !s.asleep(plank) {
			t.Errorf("ratio %v, DeepOverlap %v: box asleep %v, plank asleep %v after 10 s (box at %v, v %v)",
				ratio, c.deep, s.asleep(box), s.asleep(plank), s.pos(box), s.v(box))
		}
		sink := (s.pos(plank).Y + 0.05) - (s.pos(box).Y - 0.5)
		if sink > 0.05 || s.pos(plank).Y < 0.03 {
			t.Errorf("ratio %v, DeepOverlap %v: box %.4f m into the plank, plank centre at %.4f m (rest 0.05)", ratio, c.deep, sink, s.pos(plank).Y)
		}
	}
}

// TestPhysicsHighMassRatioPyramids is Box2D v3's HighMassRatio1 sample:
// three pyramids of base 10 of 2 m boxes, each topped by a box of density
// 100, 200 and 300 dropped from 2 m above its place. The pyramids stand,
// every box within 0.5 m of its place, and fall asleep within 10 s. At 60
// Hz, the heavy softness turned off, the second and third collapsed within
// 10 s; with only the contacts of the heavy top softened, the first shed
// three boxes from its flank.
//
// The same holds with Config.DeepOverlap set, which heavy islands ignore.
func TestPhysicsHighMassRatioPyramids(t *testing.T) {
	for _, deep := range []float64{0, 0.01} {
		t.Run(fmt.Sprint("DeepOverlap=", deep), func(t *testing.T) { highMassRatioPyramids(t, deep) })
	}
}

func highMassRatioPyramids(t *testing.T, deep float64) {
	s := newSim(t, func(cfg *systems.Config) { cfg.DeepOverlap = deep })
	s.add(staticBox(0, -1, 50, 1, 0))
	var all []arche.Entity
	var rest []float64 // each box's resting height, less nothing for sinking
	for j := 0; j < 3; j++ {
		offset := -20 + 22*float64(j)
		y := 1.0
		for count := 10; count > 0; count-- {
			for i := 0; i < count; i++ {
				def := dynBox(2*(float64(i)-0.5*float64(count))+offset, y, 1, 1)
				def.Density = 1
				if count == 1 {
					def.Position.Y += 2
					def.Density = 100 * float64(j+1)
				}
				all = append(all, s.add(def))
				rest = append(rest, y)
			}
			y += 2
		}
	}
	asleepAt := -1
	for step := 1; step <= 600 && asleepAt < 0; step++ {
		s.run(1)
		if allAsleep(s, all) {
			asleepAt = step
		}
	}
	if asleepAt < 0 {
		t.Errorf("not all asleep after 10 s")
	}
	for i, e := range all {
		if p := s.pos(e); math.Abs(p.Y-rest[i]) > 0.5 {
			t.Errorf("box %d at %v, want within 0.5 m of height %.0f", i, p, rest[i])
		}
	}
	t.Logf("asleep at step %d", asleepAt)
}
