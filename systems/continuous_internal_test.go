package systems

import (
	"math"
	"math/rand/v2"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
)

// TestSweepShortcutChangesNothing runs one scene twice, with and without
// the shortcut of continuous (a fast body with no frozen candidate whose
// path stays inside its reach box is not swept), and requires the same
// poses and velocities, bit for bit, after every step. The scene has what
// the shortcut must tell apart: a closed box of thin static walls, posts
// and sleeping bodies inside it, and 300 circles and boxes thrown at up to
// 60 m/s, some in the open and some at the walls, colliding with each
// other; and light balls at rest near a wall, which heavy fast ones hit
// into it (their paths leave their reach boxes: without the sweep they go
// through the wall).
func TestSweepShortcutChangesNothing(t *testing.T) {
	defer func() { sweepAll = false }()
	build := func() (*arche.World, *Physics, []arche.Entity) {
		p, w := internalWorld(t, DefaultConfig())
		var ents []arche.Entity
		add := func(d ecs.BodyDef) {
			e, err := ecs.NewBody(w, d)
			if err != nil {
				t.Fatal(err)
			}
			ents = append(ents, e)
		}
		static := func(x, y, hx, hy, angle float64) {
			d := ecs.DefaultBodyDef()
			d.Type, d.Shape, d.Position, d.Angle = components.Static, components.Box(hx, hy), components.V(x, y), angle
			add(d)
		}
		static(0, -20, 20, 0.05, 0)
		static(0, 20, 20, 0.05, 0)
		static(-20, 0, 0.05, 20, 0)
		static(20, 0, 0.05, 20, 0)
		static(5, -5, 0.05, 3, 0.4)
		static(-8, 6, 2, 0.05, -0.3)
		r := rand.New(rand.NewPCG(3, 11))
		for i := range 300 {
			d := ecs.DefaultBodyDef()
			d.Position = components.V(-18+36*r.Float64(), -18+36*r.Float64())
			size := 0.05 + 0.4*r.Float64()
			d.Shape = components.Circle(size)
			if i%2 == 1 {
				d.Shape = components.Box(size, 0.05+0.4*r.Float64())
				d.Angle = 2 * math.Pi * r.Float64()
			}
			speed, dir := 60*r.Float64()*r.Float64(), 2*math.Pi*r.Float64()
			d.LinearVelocity = components.V(speed*math.Cos(dir), speed*math.Sin(dir))
			d.AngularVelocity = 20 * (r.Float64() - 0.5)
			d.Restitution = 0.5 * r.Float64()
			d.StartAsleep = i%25 == 0
			add(d)
		}
		// Billiards at the right wall: a heavy ball at 60 m/s right behind
		// a light one at rest, whose reach does not meet the wall. The
		// collision sends the light ball at the wall faster than the
		// speculative contacts can see.
		for k := range 5 {
			y := -15 + 7*float64(k)
			light := ecs.DefaultBodyDef()
			light.Shape, light.Position = components.Circle(0.05), components.V(19.6, y)
			add(light)
			heavy := ecs.DefaultBodyDef()
			heavy.Shape, heavy.Position, heavy.Density = components.Circle(0.3), components.V(19.2-0.01*float64(k), y), 50
			heavy.LinearVelocity = components.V(60, 0)
			add(heavy)
		}
		return w, p, ents
	}
	wa, pa, ea := build()
	wb, pb, eb := build()
	ma := generic.NewMap2[components.Transform, components.Velocity](wa)
	mb := generic.NewMap2[components.Transform, components.Velocity](wb)
	skips, sweeps := 0, 0
	for step := range 120 {
		sweepAll = false
		pa.sweepSkips = 0
		pa.Update(wa)
		skips += pa.sweepSkips
		sweepAll = true
		pb.Update(wb)
		sweeps += pb.profile.Get().Swept
		for k := range ea {
			ta, va := ma.Get(ea[k])
			tb, vb := mb.Get(eb[k])
			if *ta != *tb || *va != *vb {
				t.Fatalf("step %d, body %d: %v %v with the shortcut, %v %v without", step, k, *ta, *va, *tb, *vb)
			}
		}
	}
	// Both kinds of sweep ran: skipped, and queried.
	if skips == 0 || skips >= sweeps {
		t.Fatalf("%d sweeps, %d of them skipped: the scene does not test the shortcut", sweeps, skips)
	}
	t.Logf("%d sweeps, %d skipped", sweeps, skips)
}
