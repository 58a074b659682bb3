package systems

import (
	"context"
	"fmt"
	"math"
	"runtime"

	"github.com/tumble2d/tumble/components"
)

// MixRule combines the friction or restitution of two bodies into the value
// of their contact.
type MixRule uint8

const (
	// MixGeometric is sqrt(a b): Box2D's default for friction, so a body with
	// zero friction makes every contact of it frictionless.
	MixGeometric MixRule = iota
	// MixMax is max(a, b): Box2D's default for restitution, so a bouncy ball
	// bounces on any floor.
	MixMax
	// MixMin is min(a, b).
	MixMin
	// MixMultiply is a b (Chipmunk multiplies restitutions and frictions).
	MixMultiply
	// MixAverage is (a + b) / 2.
	MixAverage
)

// Mix applies the rule to a and b.
func (r MixRule) Mix(a, b float64) float64 {
	switch r {
	case MixMax:
		return math.Max(a, b)
	case MixMin:
		return math.Min(a, b)
	case MixMultiply:
		return a * b
	case MixAverage:
		return 0.5 * (a + b)
	}
	return math.Sqrt(a * b)
}

// Config holds the settings of a [Physics]. Start from [DefaultConfig].
type Config struct {
	Dt       float64         // fixed step, s (default 1/60)
	SubSteps int             // solver substeps per step (default 4)
	Gravity  components.Vec2 // initial gravity, m/s^2; change it at run time with ecs.SetGravity
	// Workers is the number of goroutines that share a step, the caller
	// included; 0 means runtime.GOMAXPROCS(0), and more than 255 means 255
	// (Physics.Workers tells the number). Results are bit-identical for any
	// value.
	Workers int

	Sleep          bool    // let resting islands fall asleep (default true)
	SleepThreshold float64 // m/s: a body is resting below |v| + r_max |w| < this (default 0.05)
	// TimeToSleep (s) is how long all the bodies of an island must rest
	// before it sleeps (default 0.5). A body whose speed grew by more than
	// a quarter of SleepThreshold over that time is speeding up, not
	// resting, and starts its rest again.
	TimeToSleep float64

	ContactHertz float64 // contact stiffness (default 60)
	// HeavyContactHertz is the stiffness of the contacts between dynamic
	// bodies in an island (bodies touching, directly or through others)
	// whose heaviest dynamic body is more than HeavyMassRatio times its
	// lightest (default 30, Box2D v3's default for every contact); the
	// lower of it and ContactHertz applies.
	HeavyContactHertz float64
	// HeavyMassRatio is that ratio of an island's heaviest to its lightest
	// dynamic body (default 10); 0 turns the heavy softness off.
	HeavyMassRatio      float64
	ContactDampingRatio float64 // contact damping ratio (default 10)
	MaxPushOut          float64 // m/s: cap on the push-out speed of overlap (default 3)
	// DeepOverlap (m), when > 0: overlap deeper than this is pushed out at
	// a quarter of the contact's rate, so that bodies created or moved into
	// each other come apart without throwing their neighbours; 0.01 suits
	// bodies of 0.1 to 10 m. Default 0: the full rate at any depth, as in
	// Box2D (see solver.Params.DeepOverlap for what each costs).
	DeepOverlap          float64
	RestitutionThreshold float64 // m/s: slower approaches do not bounce (default 1)
	// HitSpeed (m/s) is the approach speed above which a contact point
	// that pushes is reported in ecs.ContactEvents.Hit (default 1, Box2D
	// v3's hit event threshold); +Inf reports none.
	HitSpeed       float64
	MaxLinearSpeed float64 // m/s (default 400)
	// SpeculativeDistance is the gap (m) within which resting contacts are
	// kept, so they do not flicker; the engine adds the distance each pair can
	// close within a step (default 0.02, Box2D's 4 x linear slop).
	SpeculativeDistance float64
	FrictionMix         MixRule // default MixGeometric
	RestitutionMix      MixRule // default MixMax
	// CellSize is the broad-phase grid cell (m); 0 chooses it from the
	// bodies. The pairs found, and so the results, do not depend on it.
	CellSize float64
	// LargeIslandContacts: islands with at least this many contacts are
	// solved by graph colouring on all workers, eight contacts at a time
	// where the CPU has AVX-512 and four where it has AVX2; smaller
	// islands are solved whole, one per worker (default 64: on many_pyramids, 400 islands of 145 contacts,
	// colouring them with the wide kernels took the solve from 32 to 20
	// ms/step against 1024, and no scene got slower).
	LargeIslandContacts int
	// ForwardColorOrder sweeps the colours in one order in every substep,
	// as Box2D v3 does; the default reverses the solve and relax sweeps
	// every other substep, which keeps 60 Hz pyramids from sliding. With
	// ContactHertz 30 it gives Box2D v3.2's behaviour (see docs/behaviour.md,
	// "Against Box2D v3.2"); at 60 Hz pyramids of base 20 and more slide.
	ForwardColorOrder bool
	// TimeJobs times each worker's share of every job handed to the
	// workers, for ecs.Profile.Work: five clock reads a job on 2 workers,
	// about 0.2 % of tumbler's step. Off, Work stays zero.
	TimeJobs bool
	// ProfileContext is the context whose pprof labels the stage labels
	// extend, and which Update restores on the calling goroutine on return
	// (default context.Background()).
	ProfileContext context.Context
}

// DefaultConfig returns the settings of the canonical scenes: dt 1/60 s, 4
// substeps, gravity (0, -10), sleep on, Box2D v3's contact settings (but 60 Hz
// contacts, a quarter of the substep rate, where Box2D v3.2 runs 30 Hz at
// this step: large_pyramid sags 0.52 m in 500 steps, Box2D 0.73 m; stacks
// sink a quarter as deep; bodies created overlapping are pushed apart twice
// as fast, see DeepOverlap) and mixing rules, all cores. The contacts of islands whose masses differ more than
// tenfold take 30 Hz: at 60 Hz a heavy body on a much lighter one (mass
// ratio 75 and more) did not settle.
func DefaultConfig() Config {
	return Config{Dt: 1.0 / 60, SubSteps: 4, Gravity: components.Vec2{Y: -10},
		Sleep: true, SleepThreshold: 0.05, TimeToSleep: 0.5,
		ContactHertz: 60, HeavyContactHertz: 30, HeavyMassRatio: 10, ContactDampingRatio: 10, MaxPushOut: 3, RestitutionThreshold: 1,
		HitSpeed: 1, MaxLinearSpeed: 400, SpeculativeDistance: 0.02,
		FrictionMix: MixGeometric, RestitutionMix: MixMax, LargeIslandContacts: 64}
}

// Box2DConfig returns DefaultConfig with Box2D v3.2's contact behaviour:
// 30 Hz contacts (what Box2D v3.2 runs at 4 substeps of 1/60 s) and the
// colours swept in one order (ForwardColorOrder). Measured against Box2D
// v3.2 (box2d3-wasm) on the same scenes, pyramids of bases 16 to 30 sleep
// at steps 54 to 73 (Box2D: 46 to 65), a column of ten boxes created 5, 10
// and 25 cm into each other rises -0.03, 0.43 and 5.8 m (Box2D: -0.03,
// 0.51 and 6.4), and large_pyramid sags 0.86 m (Box2D: 0.73; DefaultConfig:
// 0.52). DefaultConfig's 60 Hz holds stacks four times stiffer and pushes
// overlap apart twice as fast.
func Box2DConfig() Config {
	c := DefaultConfig()
	c.ContactHertz, c.ForwardColorOrder = 30, true
	return c
}

// Validate returns an error naming the first bad setting.
func (c *Config) Validate() error {
	pos := []struct {
		name string
		v    float64
	}{
		{"Dt", c.Dt}, {"ContactHertz", c.ContactHertz}, {"HeavyContactHertz", c.HeavyContactHertz},
		{"ContactDampingRatio", c.ContactDampingRatio},
		{"MaxPushOut", c.MaxPushOut}, {"MaxLinearSpeed", c.MaxLinearSpeed},
	}
	for _, p := range pos {
		if !(p.v > 0) || !components.IsFinite(p.v) {
			return fmt.Errorf("tumble: config: %s = %v must be > 0 and finite", p.name, p.v)
		}
	}
	nonneg := []struct {
		name string
		v    float64
	}{
		{"SleepThreshold", c.SleepThreshold}, {"TimeToSleep", c.TimeToSleep},
		{"RestitutionThreshold", c.RestitutionThreshold}, {"SpeculativeDistance", c.SpeculativeDistance},
		{"CellSize", c.CellSize}, {"HeavyMassRatio", c.HeavyMassRatio}, {"DeepOverlap", c.DeepOverlap},
	}
	for _, p := range nonneg {
		if !(p.v >= 0) || !components.IsFinite(p.v) {
			return fmt.Errorf("tumble: config: %s = %v must be >= 0 and finite", p.name, p.v)
		}
	}
	if !(c.HitSpeed >= 0) {
		return fmt.Errorf("tumble: config: HitSpeed = %v must be >= 0 (+Inf: no hit events)", c.HitSpeed)
	}
	if c.HeavyMassRatio > 0 && c.HeavyMassRatio < 1 {
		return fmt.Errorf("tumble: config: HeavyMassRatio = %v must be 0 (off) or >= 1", c.HeavyMassRatio)
	}
	if !c.Gravity.IsFinite() {
		return fmt.Errorf("tumble: config: Gravity %v is NaN or infinite", c.Gravity)
	}
	if c.SubSteps < 1 {
		return fmt.Errorf("tumble: config: SubSteps = %d must be >= 1", c.SubSteps)
	}
	if c.Workers < 0 {
		return fmt.Errorf("tumble: config: Workers = %d must be >= 0", c.Workers)
	}
	if c.LargeIslandContacts < 1 {
		return fmt.Errorf("tumble: config: LargeIslandContacts = %d must be >= 1", c.LargeIslandContacts)
	}
	if c.FrictionMix > MixAverage || c.RestitutionMix > MixAverage {
		return fmt.Errorf("tumble: config: unknown mixing rule")
	}
	return nil
}

// workers resolves Workers: the setting, or GOMAXPROCS for 0, capped at
// maxWorkers.
func (c *Config) workers() int {
	n := c.Workers
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	return min(n, maxWorkers)
}

// maxWorkers caps the pool. Each helper is a goroutine that polls between
// jobs, and more of them than cores only add hand-overs; the cap bounds
// what a mistaken setting (a million workers) can start.
const maxWorkers = 255
