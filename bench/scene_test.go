package bench

import (
	"math"
	"slices"
	"testing"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
)

func TestScenesOrderAndLookup(t *testing.T) {
	want := []string{"large_pyramid", "many_pyramids", "smash", "tumbler", "circle_rain", "mixed_pile",
		"falling_bricks", "cool_demo"}
	if got := Names(); !slices.Equal(got, want) {
		t.Fatalf("Names() = %v, want %v", got, want)
	}
	steps := []int{500, 200, 300, 750, 300, 300, 900, 600}
	sleep := []bool{false, false, true, true, false, false, true, true}
	for i, s := range Scenes() {
		if s.Steps != steps[i] || s.Sleep != sleep[i] {
			t.Errorf("%s: steps %d sleep %v, want %d %v (scenes.md)", s.Name, s.Steps, s.Sleep, steps[i], sleep[i])
		}
		got, err := Lookup(s.Name)
		if err != nil || got.Name != s.Name {
			t.Errorf("Lookup(%q) = %v, %v", s.Name, got, err)
		}
		cfg := s.Config(3)
		if cfg.Dt != 1.0/60 || cfg.SubSteps != 4 || cfg.Workers != 3 || cfg.Sleep != s.Sleep || cfg.Gravity != s.Gravity {
			t.Errorf("%s: Config = %+v", s.Name, cfg)
		}
	}
	if _, err := Lookup("nope"); err == nil {
		t.Error("Lookup(nope) gave no error")
	}
}

func TestSplitMix64(t *testing.T) {
	// Reference values of splitmix64 seeded with 1 (computed independently).
	r := NewSplitMix64(1)
	for _, want := range []uint64{0x910a2dec89025cc1, 0xbeeb8da1658eec67, 0xf893a2eefb32555e} {
		if got := r.Next(); got != want {
			t.Fatalf("Next() = %#x, want %#x", got, want)
		}
	}
	if got := NewSplitMix64(1).Uniform(0.25, 0.5); got != 0.39164039379307025 {
		t.Errorf("Uniform(0.25, 0.5) = %v, want 0.39164039379307025", got)
	}
}

// built is a scene built in a fresh world, without physics.
func built(t *testing.T, name string, scale float64) (*arche.World, *Built) {
	t.Helper()
	s, err := Lookup(name)
	if err != nil {
		t.Fatal(err)
	}
	w := arche.NewWorld()
	b, err := s.Build(&w, scale)
	if err != nil {
		t.Fatal(err)
	}
	return &w, b
}

type bodyView struct {
	P     components.Vec2
	Angle float64
	Shape components.Shape
	Type  components.BodyType
	V     components.Velocity
	Mat   components.Material
	Mass  float64
}

func view(w *arche.World, e arche.Entity) bodyView {
	m := generic.NewMap6[components.Transform, components.Velocity, components.Shape, components.Material,
		components.Body, components.Mass](w)
	tr, v, s, mat, b, ms := m.Get(e)
	return bodyView{P: tr.P, Angle: tr.Angle(), Shape: *s, Type: b.Type, V: *v, Mat: *mat, Mass: ms.Mass}
}

func near(a, b components.Vec2) bool { return math.Abs(a.X-b.X) < 1e-12 && math.Abs(a.Y-b.Y) < 1e-12 }

// spot is one body of a scene to check against the formulas of scenes.md.
type spot struct {
	index int
	pos   components.Vec2
	shape components.Shape
	typ   components.BodyType
}

func TestBuildCountsAndOrder(t *testing.T) {
	box := components.Box
	v := components.V
	u2 := float64(uint64(0xbeeb8da1658eec67)>>11) / (1 << 53) // second draw of splitmix64(1)
	x0 := -(91*1.05 + 0.525) / 2
	tests := []struct {
		scene  string
		bodies int
		spots  []spot
	}{
		{"large_pyramid", 5051, []spot{
			{0, v(0, -1), box(100, 1), components.Static},
			{1, v(-49.5, 0.5), box(0.5, 0.5), components.Dynamic},  // i = 0, j = 0
			{100, v(49.5, 0.5), box(0.5, 0.5), components.Dynamic}, // i = 0, j = 99
			{101, v(-49, 1.5), box(0.5, 0.5), components.Dynamic},  // i = 1, j = 1
			{5050, v(0, 99.5), box(0.5, 0.5), components.Dynamic},  // top
		}},
		{"many_pyramids", 22020, []spot{
			{0, v(0, -0.05), box(110, 0.05), components.Static},
			{19, v(0, 208.95), box(110, 0.05), components.Static},
			{20, v(-109, 0.5), box(0.5, 0.5), components.Dynamic},          // r 0, c 0, i 0, j 0
			{20 + 54, v(-104.5, 9.5), box(0.5, 0.5), components.Dynamic},   // its top
			{20 + 55, v(-98, 0.5), box(0.5, 0.5), components.Dynamic},      // r 0, c 1
			{20 + 20*55, v(-109, 11.5), box(0.5, 0.5), components.Dynamic}, // r 1, c 0
			{22019, v(104.5, 218.5), box(0.5, 0.5), components.Dynamic},    // last top
		}},
		{"smash", 9601, []spot{
			{0, v(-20, 0), box(4, 4), components.Dynamic},
			{1, v(30, -16), box(0.2, 0.2), components.Dynamic},    // i 0, j 0
			{2, v(30, -15.6), box(0.2, 0.2), components.Dynamic},  // i 0, j 1
			{81, v(30.4, -16), box(0.2, 0.2), components.Dynamic}, // i 1, j 0
			{9600, v(77.6, 15.6), box(0.2, 0.2), components.Dynamic},
		}},
		{"tumbler", 2029, []spot{
			{0, v(10, 10), box(0.5, 10), components.Kinematic},
			{1, v(-10, 10), box(0.5, 10), components.Kinematic},
			{2, v(0, 20), box(10, 0.5), components.Kinematic},
			{3, v(0, 0), box(10, 0.5), components.Kinematic},
			{4, v(-9, 1), box(0.125, 0.125), components.Dynamic},
			{5, v(-8.6, 1), box(0.125, 0.125), components.Dynamic},
			{4 + 45, v(-9, 1.4), box(0.125, 0.125), components.Dynamic},
			{2028, v(8.6, 18.6), box(0.125, 0.125), components.Dynamic},
		}},
		{"circle_rain", 10003, []spot{
			{0, v(0, -0.5), box(51, 0.5), components.Static},
			{1, v(-50.5, 60), box(0.5, 60), components.Static},
			{2, v(50.5, 60), box(0.5, 60), components.Static},
			{3, v(x0-0.02+0.04*u2, 1), components.Circle(0.39164039379307025), components.Dynamic},
		}},
		{"mixed_pile", 10003, []spot{
			{0, v(0, -0.5), box(51, 0.5), components.Static},
			{2, v(50.5, 60), box(0.5, 60), components.Static},
		}},
		{"falling_bricks", 10, []spot{
			{0, v(0, -3.875), box(5.25, 0.125), components.Static},
			{1, v(0, 3.875), box(5.25, 0.125), components.Static},
			{2, v(-5.125, 0), box(0.125, 3.75), components.Static},
			{3, v(5.125, 0), box(0.125, 3.75), components.Static},
			{4, v(-4, 2), box(0.75, 0.25), components.Dynamic},
			{9, v(4, 2), box(0.3, 0.3), components.Dynamic},
		}},
		{"cool_demo", 24, []spot{
			{0, v(25, 12.5), box(10, 0.5), components.Static},
			{1, v(10, 2.5), box(10, 0.5), components.Static},
			{2, v(5, 12.5), box(5, 0.5), components.Static},
			{3, v(0.5, 4.5), box(0.5, 2.5), components.Static},
		}},
	}
	for _, tc := range tests {
		t.Run(tc.scene, func(t *testing.T) {
			w, b := built(t, tc.scene, 1)
			if len(b.Bodies) != tc.bodies {
				t.Fatalf("%d bodies, want %d", len(b.Bodies), tc.bodies)
			}
			for i, e := range b.Bodies {
				if !ecs.IsBody(w, e) {
					t.Fatalf("body %d is not a body", i)
				}
				if i > 0 && e.ID() <= b.Bodies[i-1].ID() {
					t.Fatalf("body %d: entity IDs not in creation order", i)
				}
			}
			for _, s := range tc.spots {
				got := view(w, b.Bodies[s.index])
				if !near(got.P, s.pos) || got.Shape != s.shape || got.Type != s.typ {
					t.Errorf("body %d: at %v shape %+v %v, want %v %+v %v", s.index, got.P, got.Shape, got.Type,
						s.pos, s.shape, s.typ)
				}
			}
		})
	}
}

func TestBuildSceneDetails(t *testing.T) {
	t.Run("smash", func(t *testing.T) {
		w, b := built(t, "smash", 1)
		big := view(w, b.Bodies[0])
		if big.Mass != 512 || big.V.Lin != components.V(40, 0) || ecs.IsSleeping(w, b.Bodies[0]) {
			t.Errorf("big box: mass %v velocity %v asleep %v", big.Mass, big.V.Lin, ecs.IsSleeping(w, b.Bodies[0]))
		}
		for _, e := range b.Bodies[1:] {
			if !ecs.IsSleeping(w, e) {
				t.Fatal("a small box starts awake")
			}
		}
	})
	t.Run("tumbler", func(t *testing.T) {
		w, b := built(t, "tumbler", 1)
		wall := view(w, b.Bodies[0]) // at (10, 10): omega x (10, 0) = (0, 10 omega)
		if math.Abs(wall.V.Lin.Y-10*drumOmega) > 1e-12 || wall.V.Lin.X != 0 || wall.V.Ang != drumOmega {
			t.Errorf("wall 0 velocity %+v", wall.V)
		}
	})
	t.Run("mixed_pile", func(t *testing.T) {
		w, b := built(t, "mixed_pile", 1)
		r := NewSplitMix64(1)
		wd, ht := r.Uniform(0.5, 1), r.Uniform(0.5, 1)
		_ = r.Uniform(-0.02, 0.02)
		rad := r.Uniform(0.25, 0.5)
		if got := view(w, b.Bodies[3]).Shape; got != components.Box(wd/2, ht/2) {
			t.Errorf("body 3 shape %+v, want box %v x %v", got, wd, ht)
		}
		if got := view(w, b.Bodies[4]).Shape; got != components.Circle(rad) {
			t.Errorf("body 4 shape %+v, want circle %v", got, rad)
		}
		for k, e := range b.Bodies[3:] {
			want := components.ShapeBox
			if k%2 == 1 {
				want = components.ShapeCircle
			}
			if got := view(w, e).Shape.Kind; got != want {
				t.Fatalf("body k = %d is a %v, want %v", k, got, want)
			}
		}
		// Row 1 (k = 92) is offset by half a pitch and one pitch up.
		p := view(w, b.Bodies[3+92]).P
		if x0 := -(91*1.05 + 0.525) / 2; math.Abs(p.X-(x0+0.525)) > 0.02 || p.Y != 1+1.05 {
			t.Errorf("k = 92 at %v", p)
		}
	})
	t.Run("cool_demo", func(t *testing.T) {
		w, b := built(t, "cool_demo", 1)
		if got := view(w, b.Bodies[0]).Angle; math.Abs(got+2.8) > 1e-12 {
			t.Errorf("platform 0 angle %v, want -2.8", got)
		}
		for k, e := range b.Bodies[4:] {
			v := view(w, e)
			want := components.ShapeBox
			if k%2 == 1 {
				want = components.ShapeCircle
			}
			if v.Shape.Kind != want || v.Type != components.Dynamic || v.Mass < 1 || v.Mass > 30 ||
				v.P.X < 0 || v.P.X > 40 || v.P.Y < 11.25 || v.P.Y > 22.5 ||
				math.Abs(v.V.Lin.X) > 1.5 || math.Abs(v.V.Lin.Y) > 1.5 {
				t.Errorf("random body %d: %+v", k, v)
			}
		}
	})
}

func TestBuildScale(t *testing.T) {
	for _, tc := range []struct {
		scale        float64
		bodies, cols int
		wallX        float64
	}{
		{1, 10000, 92, 50.5},
		{4, 40000, 184, 101},
		{0.25, 2500, 46, 25.25},
		{0.05, 500, 20, 50.5 * math.Sqrt(0.05)}, // 21 columns would not fit
	} {
		o, err := newOpenBox(tc.scale)
		if err != nil {
			t.Fatal(err)
		}
		if o.n != tc.bodies || o.cols != tc.cols || math.Abs(o.wallX-tc.wallX) > 1e-12 {
			t.Errorf("scale %v: %d bodies, %d columns, walls at %v", tc.scale, o.n, o.cols, o.wallX)
		}
		rows := (o.n + o.cols - 1) / o.cols
		top := 1 + 1.05*float64(rows-1) + 0.5
		right := o.x0 + 1.05*float64(o.cols-1) + 0.525 + 0.52
		if top > o.wallTop || right > o.wallX-0.5 || -(o.x0-0.52) > o.wallX-0.5 {
			t.Errorf("scale %v: spawn grid (top %v, right %v) outside the box (%v, %v)", tc.scale, top, right,
				o.wallTop, o.wallX-0.5)
		}
	}
	w, b := built(t, "circle_rain", 0.25)
	if len(b.Bodies) != 2503 {
		t.Errorf("circle_rain at scale 0.25: %d bodies, want 2503", len(b.Bodies))
	}
	if p := view(w, b.Bodies[2]).P; p.X != 25.25 {
		t.Errorf("right wall at %v", p)
	}
	if _, b := built(t, "cool_demo", 2); len(b.Bodies) != 44 {
		t.Errorf("cool_demo at scale 2: %d bodies, want 44", len(b.Bodies))
	}
	if _, b := built(t, "large_pyramid", 2); len(b.Bodies) != 5051 || b.Scale != 1 {
		t.Errorf("large_pyramid ignores scale, got %d bodies at scale %v", len(b.Bodies), b.Scale)
	}
	if _, b := built(t, "mixed_pile", 0.25); b.Scale != 0.25 {
		t.Errorf("mixed_pile built at scale %v, want 0.25", b.Scale)
	}
	s, _ := Lookup("mixed_pile")
	w2 := arche.NewWorld()
	for _, bad := range []float64{0, -1, math.Inf(1), math.NaN(), 1e-6} {
		if _, err := s.Build(&w2, bad); err == nil {
			t.Errorf("scale %v: no error", bad)
		}
	}
}
