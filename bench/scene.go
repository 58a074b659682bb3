package bench

import (
	"fmt"
	"strconv"
	"strings"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// Scene is one canonical scene: a stateless recipe that [Scene.Build] turns
// into bodies in a world. The values are those of scenes.md.
type Scene struct {
	Name     string          // e.g. "large_pyramid"
	Steps    int             // default number of ticks of a run
	Sleep    bool            // sets systems.Config.Sleep
	Gravity  components.Vec2 // initial gravity, m/s^2
	About    string          // one line: what the scene is and where it comes from
	Scalable bool            // whether the scale factor of Build changes the scene

	build func(w *arche.World, scale float64) (*Built, error)
}

// Config returns the physics settings of the scene: [systems.DefaultConfig]
// (dt 1/60 s, 4 substeps) with the scene's gravity and sleep setting and the
// given number of workers (0 means GOMAXPROCS).
func (s *Scene) Config(workers int) systems.Config {
	cfg := systems.DefaultConfig()
	cfg.Gravity = s.Gravity
	cfg.Sleep = s.Sleep
	cfg.Workers = workers
	return cfg
}

// MaxScale is the largest scale factor Build takes: 10 million bodies in
// circle_rain and mixed_pile, some 4 GB of rows. Past it a scale is a typo,
// and building it would run out of memory (or, from 1e15, overflow the body
// count) rather than fail with a message.
const MaxScale = 1000

// Build creates the scene's bodies in w, in the order scenes.md gives, with
// [ecs.NewBodies], and returns the built scene. scale must be in (0, MaxScale];
// it changes only scalable scenes (see the package documentation). Build
// does not need the physics to be initialised on w, but [Built.PreStep] does.
func (s *Scene) Build(w *arche.World, scale float64) (*Built, error) {
	if !(scale > 0) || scale > MaxScale {
		return nil, fmt.Errorf("bench: scene %s: scale %v must be > 0 and at most %v", s.Name, scale, float64(MaxScale))
	}
	b, err := s.build(w, scale)
	if err != nil {
		return nil, fmt.Errorf("bench: scene %s: %w", s.Name, err)
	}
	if !s.Scalable {
		scale = 1 // what it was built at, for the reports
	}
	b.Scene, b.Scale, b.Dt = s, scale, s.Config(0).Dt
	return b, nil
}

// Built is a scene instance living in one world: its bodies in creation order,
// its per-tick hook and its health check, with whatever state they keep
// across the run.
type Built struct {
	Scene *Scene
	// Scale is the scale the scene was built at: Build's, or 1 for a
	// scene that does not scale.
	Scale  float64
	Bodies []arche.Entity // every body, static ones included, in creation order
	// Ticks counts the calls of PreStep, that is the ticks run (or about to
	// run) so far.
	Ticks int
	// Dt is the fixed step (s) the hooks assume: the scene's default, 1/60 s.
	// Set it if the physics runs with another Config.Dt ([NewSim] does).
	Dt float64

	tick   func(w *arche.World, tick int) error // nil: no per-tick work
	health func(w *arche.World) Health
}

// PreStep runs the scene's per-tick work for the coming tick and counts it.
// Call it before every Physics.Update, with no query open: the tumbler sets
// its walls' velocities, falling_bricks turns the gravity every 150 ticks,
// cool_demo removes bodies below y = -50 m. It returns an error only if the
// world lacks the physics resources.
func (b *Built) PreStep(w *arche.World) error {
	t := b.Ticks
	b.Ticks++
	if b.tick == nil {
		return nil
	}
	return b.tick(w, t)
}

// Health runs the scene's health check on the current state of w.
func (b *Built) Health(w *arche.World) Health { return b.health(w) }

// Health is the result of a scene's health check.
type Health struct {
	OK      bool
	Message string  // human-readable, one line, with the key numbers
	Values  []Value // the numbers behind the verdict
}

// Value is one named number of a [Health] check (SI units; the name says
// which).
type Value struct {
	Name  string
	Value float64
}

// String returns "ok: message" or "FAILED: message".
func (h Health) String() string {
	if h.OK {
		return "ok: " + h.Message
	}
	return "FAILED: " + h.Message
}

// Get returns the value called name and whether it exists.
func (h Health) Get(name string) (float64, bool) {
	for _, v := range h.Values {
		if v.Name == name {
			return v.Value, true
		}
	}
	return 0, false
}

// Scenes returns the eight canonical scenes in the order of scenes.md.
func Scenes() []*Scene {
	return []*Scene{
		{Name: "large_pyramid", Steps: 500, Gravity: earth, build: buildLargePyramid,
			About: "Box2D v3 LargePyramid: 5050 boxes in a pyramid of base 100 on a static ground"},
		{Name: "many_pyramids", Steps: 200, Gravity: earth, build: buildManyPyramids,
			About: "Box2D v3 ManyPyramids: 20 x 20 pyramids of base 10 (22000 boxes) on 20 grounds"},
		{Name: "smash", Steps: 300, Sleep: true, build: buildSmash,
			About: "Box2D v3 Smash: a heavy box at 40 m/s hits 9600 sleeping boxes, no gravity"},
		{Name: "tumbler", Steps: 750, Sleep: true, Gravity: earth, build: buildTumbler,
			About: "Box2D v3 Tumbler: 2025 boxes in a drum of 4 kinematic walls turning at 25 deg/s"},
		{Name: "circle_rain", Steps: 300, Gravity: earth, Scalable: true, build: buildCircleRain,
			About: "10000 circles of radius 0.25..0.5 falling into an open box"},
		{Name: "mixed_pile", Steps: 300, Gravity: earth, Scalable: true, build: buildMixedPile,
			About: "5000 boxes and 5000 circles falling into an open box"},
		{Name: "falling_bricks", Steps: 900, Sleep: true, Gravity: earth, build: buildFallingBricks,
			About: "CS3217 Falling Bricks: 6 bricks in a closed box, gravity turns 90 deg clockwise every 150 ticks"},
		{Name: "cool_demo", Steps: 600, Sleep: true, Gravity: earth, Scalable: true, build: buildCoolDemo,
			About: "HTML5 physics book Cool Demo: 4 platforms and 20 random bodies, fallen ones removed"},
	}
}

var earth = components.Vec2{Y: -10}

// Names returns the scene names in the order of [Scenes].
func Names() []string {
	var out []string
	for _, s := range Scenes() {
		out = append(out, s.Name)
	}
	return out
}

// Lookup returns the scene called name, or an error listing the known names.
func Lookup(name string) (*Scene, error) {
	for _, s := range Scenes() {
		if s.Name == name {
			return s, nil
		}
	}
	return nil, fmt.Errorf("bench: unknown scene %q (known: %s)", name, strings.Join(Names(), ", "))
}

// SplitMix64 is the splitmix64 generator of scenes.md (Steele, Lea and
// Flood), the one every engine's harness uses so that they all build the same
// random scenes. The zero value is seeded with 0.
type SplitMix64 struct{ State uint64 }

// NewSplitMix64 returns a generator seeded with seed.
func NewSplitMix64(seed uint64) *SplitMix64 { return &SplitMix64{State: seed} }

// Next returns the next 64 random bits.
func (r *SplitMix64) Next() uint64 {
	r.State += 0x9E3779B97F4A7C15
	z := r.State
	z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
	z = (z ^ z>>27) * 0x94D049BB133111EB
	return z ^ z>>31
}

// Uniform returns lo + (hi - lo) * (Next() >> 11) * 2^-53, a number in
// [lo, hi).
func (r *SplitMix64) Uniform(lo, hi float64) float64 {
	return lo + (hi-lo)*float64(r.Next()>>11)*(1.0/(1<<53))
}

// ---- helpers shared by the builders and the health checks ----

func dynBox(hx, hy, x, y float64) ecs.BodyDef {
	d := ecs.DefaultBodyDef()
	d.Shape = components.Box(hx, hy)
	d.Position = components.Vec2{X: x, Y: y}
	return d
}

func dynCircle(r, x, y float64) ecs.BodyDef {
	d := ecs.DefaultBodyDef()
	d.Shape = components.Circle(r)
	d.Position = components.Vec2{X: x, Y: y}
	return d
}

func staticBox(hx, hy, x, y float64) ecs.BodyDef {
	d := dynBox(hx, hy, x, y)
	d.Type = components.Static
	return d
}

// poses returns a reader of the Transform of live bodies.
type poses struct {
	w  *arche.World
	tm generic.Map[components.Transform]
}

func newPoses(w *arche.World) poses {
	return poses{w: w, tm: generic.NewMap[components.Transform](w)}
}

// get returns the transform of e and whether e is alive.
func (p poses) get(e arche.Entity) (components.Transform, bool) {
	if !p.w.Alive(e) {
		return components.Transform{}, false
	}
	return *p.tm.Get(e), true
}

// countNaN returns how many of the live bodies have a non-finite transform.
func countNaN(w *arche.World, ents []arche.Entity) int {
	ps := newPoses(w)
	n := 0
	for _, e := range ents {
		if t, ok := ps.get(e); ok && !finiteTransform(t) {
			n++
		}
	}
	return n
}

func finiteTransform(t components.Transform) bool {
	return t.P.IsFinite() && components.IsFinite(t.R.C) && components.IsFinite(t.R.S)
}

// reportErrors returns the number of bodies the engine refused last tick.
func reportErrors(w *arche.World) int {
	r := generic.NewResource[ecs.Report](w)
	if !r.Has() {
		return 0
	}
	return len(r.Get().Errors)
}

// f formats x with a few significant digits for health messages.
func f(x float64) string { return strconv.FormatFloat(x, 'g', 4, 64) }
