package bench

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/fnv"
	"math"
	"runtime"
	"slices"
	"time"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/systems"
)

// DefaultWarmup is the number of untimed ticks at the start of a run:
// scenes.md excludes the first step from every timing.
const DefaultWarmup = 1

// Options configures a [Sim] and a [Run]. The zero value runs the scene's
// default steps at scale 1 on GOMAXPROCS workers with no warm-up.
type Options struct {
	Workers int     // workers sharing each step; 0 means GOMAXPROCS
	Scale   float64 // scale factor of scalable scenes; 0 means 1
	// Steps is the total number of ticks, warm-up included; 0 means the
	// scene's default (Scene.Steps), so that health checks and checksums are
	// always taken after the same tick whatever the warm-up.
	Steps int
	// Warmup is the number of untimed ticks at the start (use
	// [DefaultWarmup]); it must be smaller than Steps.
	Warmup int
	// Config, if not nil, may change the physics settings after the scene
	// has set its own (gravity, sleep, workers).
	Config func(*systems.Config)
	// ProfileContext is passed to systems.Config.ProfileContext: its pprof
	// labels extend the engine's "stage" labels.
	ProfileContext context.Context
	// Progress, if not nil, is called after every timed tick with the ticks
	// done so far (warm-up included), the total, and the wall time of the
	// timed ticks so far. It runs inside the measured loop: keep it cheap
	// and free of allocations.
	Progress func(done, total int, timed time.Duration)
	// Timer, if not nil, is started right before the first timed tick and
	// stopped right after the last one (pass a *testing.B).
	Timer Timer
}

// Timer is what [Run] needs of a *testing.B to exclude the scene build and
// the warm-up from a benchmark's time.
type Timer interface {
	StartTimer()
	StopTimer()
}

// Sim is a scene running in its own world: the world, the physics system set
// and the built scene. Create it with [NewSim], advance it with [Sim.Step],
// and release the workers with [Sim.Close].
type Sim struct {
	World   *arche.World
	Physics *systems.Physics
	Built   *Built
	Config  systems.Config
	// BuildTime is the wall time of Scene.Build.
	BuildTime time.Duration

	profile generic.Resource[ecs.Profile]
}

// NewSim creates a world, initialises a physics system set with the scene's
// settings and opts (Workers, Scale, Config, ProfileContext; the step counts
// are Run's business) and builds the scene in it.
func NewSim(scene *Scene, opts Options) (*Sim, error) {
	scale := opts.Scale
	if scale == 0 {
		scale = 1
	}
	if opts.Workers < 0 {
		return nil, fmt.Errorf("bench: workers = %d must be >= 0", opts.Workers)
	}
	cfg := scene.Config(opts.Workers)
	cfg.ProfileContext = opts.ProfileContext
	if opts.Config != nil {
		opts.Config(&cfg)
	}
	phys, err := systems.New(cfg)
	if err != nil {
		return nil, err
	}
	// arche's default capacity (128 entities per archetype, doubling): a
	// larger one would make every archetype created during the run (the
	// first body to fall asleep) allocate it in the timed loop.
	w := arche.NewWorld()
	s := &Sim{World: &w, Physics: phys, Config: cfg}
	phys.Initialize(s.World)
	t0 := time.Now()
	s.Built, err = scene.Build(s.World, scale)
	s.BuildTime = time.Since(t0)
	if err != nil {
		phys.Finalize(s.World)
		return nil, err
	}
	s.Built.Dt = cfg.Dt
	s.profile = generic.NewResource[ecs.Profile](s.World)
	return s, nil
}

// Step runs one tick: the scene's hook ([Built.PreStep]), then
// Physics.Update.
func (s *Sim) Step() error {
	if err := s.Built.PreStep(s.World); err != nil {
		return err
	}
	s.Physics.Update(s.World)
	return nil
}

// Profile returns the engine's profile of the last tick (the ecs.Profile
// resource). The pointer is overwritten by every Step.
func (s *Sim) Profile() *ecs.Profile { return s.profile.Get() }

// Health runs the scene's health check on the current state.
func (s *Sim) Health() Health { return s.Built.Health(s.World) }

// Checksum returns the [Checksum] of the current state.
func (s *Sim) Checksum() string { return Checksum(s.World, s.Built.Bodies) }

// Close stops the physics workers and removes its resources; the world keeps
// the bodies. Close is idempotent.
func (s *Sim) Close() {
	if s.Physics != nil {
		s.Physics.Finalize(s.World)
		s.Physics = nil
	}
}

// Checksum returns the FNV-1a 64 hash, as 16 hex digits, of the final
// transforms of ents in order: per body the little-endian bits of P.X, P.Y,
// R.C and R.S (32 bytes). A body that is no longer alive (cool_demo removes
// fallen ones) contributes 8 bytes of 0xFF instead.
func Checksum(w *arche.World, ents []arche.Entity) string {
	h := fnv.New64a()
	ps := newPoses(w)
	var buf [32]byte
	for _, e := range ents {
		t, ok := ps.get(e)
		if !ok {
			_, _ = h.Write([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff})
			continue
		}
		binary.LittleEndian.PutUint64(buf[0:], math.Float64bits(t.P.X))
		binary.LittleEndian.PutUint64(buf[8:], math.Float64bits(t.P.Y))
		binary.LittleEndian.PutUint64(buf[16:], math.Float64bits(t.R.C))
		binary.LittleEndian.PutUint64(buf[24:], math.Float64bits(t.R.S))
		_, _ = h.Write(buf[:])
	}
	return fmt.Sprintf("%016x", h.Sum64())
}

// Result is what one [Run] measured. Times are wall times of Physics.Update
// over the timed ticks (the scene hook and the build are excluded).
type Result struct {
	Scene   string
	Scale   float64
	Bodies  int // bodies created by the build, static ones included
	Workers int
	Steps   int // ticks run, warm-up included
	Warmup  int // untimed ticks at the start
	Timed   int // Steps - Warmup

	BuildTime time.Duration
	StepTimes []time.Duration // per timed tick, in order
	Total     time.Duration   // sum of StepTimes
	Mean      time.Duration
	Median    time.Duration
	P95       time.Duration // nearest-rank 95th percentile
	Min, Max  time.Duration
	// Stages is the mean time per timed tick of each stage, from the
	// ecs.Profile resource.
	Stages [ecs.NumStages]time.Duration
	// Work is the mean per timed tick of Profile.Work: what the jobs of
	// each stage handed to the workers took (zero on 1 worker).
	Work [ecs.NumStages]WorkMean

	// Counters of the last tick (ecs.Profile).
	Contacts int // touching manifolds
	Points   int // contact points
	Awake    int // awake dynamic and kinematic bodies simulated (Profile.Bodies)
	Frozen   int // static and sleeping bodies
	Islands  int
	Pairs    int
	Colors   int
	// MeanContacts is the mean over the timed ticks of Profile.Contacts.
	MeanContacts float64
	// ColoredOnCaller counts the timed ticks whose coloured contacts were
	// solved on the stepping goroutine alone (Profile.ColoredOnCaller).
	ColoredOnCaller int
	// Swept and Impacts are the totals over the timed ticks of
	// Profile.Swept (fast bodies swept against static ones) and
	// Profile.Impacts (those put back to their time of impact).
	Swept, Impacts int
	// Rewakes is the total over the timed ticks of Profile.Rewakes (ticks
	// sent back to wake a sleeper a body was about to touch).
	Rewakes int

	AllocsPerStep float64 // heap allocations per timed tick (whole process)
	// LateAllocsPerStep counts only the second half of the timed ticks. A
	// scene that is still forming (a rain landing, a wave of bodies waking)
	// grows its buffers to new sizes in the first half; a warm scene
	// allocates nothing.
	LateAllocsPerStep float64
	BytesPerStep      float64 // heap bytes allocated per timed tick
	GCCycles          uint32  // garbage collections during the timed ticks

	Health   Health
	Checksum string
}

// WorkMean is ecs.StageWork averaged over the timed ticks.
type WorkMean struct {
	Jobs                 float64 // jobs handed out per tick
	Wall, Caller, Others time.Duration
}

// MsPerStep returns the mean wall time of a timed tick in milliseconds.
func (r *Result) MsPerStep() float64 { return ms(r.Mean) }

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// Run builds scene in a fresh world, runs opts.Warmup untimed ticks and the
// remaining ticks up to opts.Steps timed, and returns the measurements, the
// health check and the checksum of the final state. A failed health check is
// reported in Result.Health, not as an error.
func Run(scene *Scene, opts Options) (*Result, error) {
	u, err := newRunner(scene, opts)
	if err != nil {
		return nil, err
	}
	defer u.sim.Close()
	runtime.GC()
	var before, middle, after runtime.MemStats
	runtime.ReadMemStats(&before)
	mid := u.mid()
	if opts.Timer != nil {
		opts.Timer.StartTimer()
	}
	for u.next < u.steps && err == nil {
		if u.next == mid {
			// Outside the timed span, and before the tick's hook: the
			// late half is its ticks with their hooks.
			runtime.ReadMemStats(&middle)
		}
		if err = u.hook(); err == nil {
			u.update()
		}
	}
	if opts.Timer != nil {
		opts.Timer.StopTimer()
	}
	if err != nil {
		return nil, err
	}
	runtime.ReadMemStats(&after)
	r := u.finish()
	r.AllocsPerStep = float64(after.Mallocs-before.Mallocs) / float64(r.Timed)
	r.BytesPerStep = float64(after.TotalAlloc-before.TotalAlloc) / float64(r.Timed)
	r.LateAllocsPerStep = float64(after.Mallocs-middle.Mallocs) / float64(u.steps-mid)
	r.GCCycles = after.NumGC - before.NumGC
	return r, nil
}

// RunSideBySide runs the simulations of opts side by side, each the scene
// built in its own world: every simulation in turn runs turn timed ticks
// (all of them when turn <= 0), until all have run theirs. It returns one
// Result per entry of opts, as [Run] would, but measured under the same
// conditions: on a host whose load or whose cores' speed changes from one
// minute to the next, runs one after the other compare different hosts, and
// side by side they share each change. opts[i].Timer is not used. The
// allocation figures count the turns of each simulation (a turn counts as
// late when its first tick is in the second half of the timed ticks), and
// each turn starts with the caches holding the others' data: keep turns
// long enough (tens of ticks) that refilling them stays small.
func RunSideBySide(scene *Scene, opts []Options, turn int) ([]*Result, error) {
	runners := make([]*runner, len(opts))
	defer func() {
		for _, u := range runners {
			if u != nil {
				u.sim.Close()
			}
		}
	}()
	for i, o := range opts {
		u, err := newRunner(scene, o)
		if err != nil {
			return nil, err
		}
		runners[i] = u
	}
	type allocs struct {
		mallocs, bytes, late uint64
		lateTicks            int
		gc                   uint32
	}
	counts := make([]allocs, len(runners))
	runtime.GC()
	var before, after runtime.MemStats
	for left := true; left; {
		left = false
		for i, u := range runners {
			if u.next == u.steps {
				continue
			}
			// A turn ends at the middle of the timed ticks too, so that
			// the late allocations are those of the second half, as in Run.
			first := u.next
			runtime.ReadMemStats(&before)
			for k := 0; (turn <= 0 || k < turn) && u.next < u.steps && (k == 0 || u.next != u.mid()); k++ {
				if err := u.hook(); err != nil {
					return nil, err
				}
				u.update()
			}
			runtime.ReadMemStats(&after)
			c := &counts[i]
			c.mallocs += after.Mallocs - before.Mallocs
			c.bytes += after.TotalAlloc - before.TotalAlloc
			c.gc += after.NumGC - before.NumGC
			if first >= u.mid() {
				c.late += after.Mallocs - before.Mallocs
				c.lateTicks += u.next - first
			}
			left = left || u.next < u.steps
		}
	}
	results := make([]*Result, len(runners))
	for i, u := range runners {
		r := u.finish()
		c := &counts[i]
		r.AllocsPerStep = float64(c.mallocs) / float64(r.Timed)
		r.BytesPerStep = float64(c.bytes) / float64(r.Timed)
		if c.lateTicks > 0 {
			r.LateAllocsPerStep = float64(c.late) / float64(c.lateTicks)
		}
		r.GCCycles = c.gc
		results[i] = r
	}
	return results, nil
}

// runner is one simulation being measured: built and warmed up by
// newRunner, advanced one tick at a time by hook and update, summed up by
// finish.
type runner struct {
	sim    *Sim
	opts   Options
	r      *Result
	steps  int // ticks in all, warm-up included
	next   int // the next tick
	prof   *ecs.Profile
	stages [ecs.NumStages]time.Duration
	work   [ecs.NumStages]ecs.StageWork
	// contacts is the sum over the timed ticks of Profile.Contacts.
	contacts int
}

// newRunner checks the step counts, builds the scene and runs the warm-up.
func newRunner(scene *Scene, opts Options) (*runner, error) {
	steps := opts.Steps
	if steps == 0 {
		steps = scene.Steps
	}
	if steps < 0 || opts.Warmup < 0 {
		return nil, fmt.Errorf("bench: steps = %d and warmup = %d must be >= 0", opts.Steps, opts.Warmup)
	}
	if opts.Warmup >= steps {
		return nil, fmt.Errorf("bench: warmup = %d leaves no timed ticks of %d", opts.Warmup, steps)
	}
	sim, err := NewSim(scene, opts)
	if err != nil {
		return nil, err
	}
	u := &runner{sim: sim, opts: opts, steps: steps, prof: sim.Profile()}
	u.r = &Result{Scene: scene.Name, Scale: sim.Built.Scale, Bodies: len(sim.Built.Bodies),
		Workers: sim.Physics.Workers(), Steps: steps, Warmup: opts.Warmup, Timed: steps - opts.Warmup,
		BuildTime: sim.BuildTime}
	for u.next < opts.Warmup {
		if err := sim.Step(); err != nil {
			sim.Close()
			return nil, err
		}
		u.next++
	}
	u.r.StepTimes = make([]time.Duration, 0, u.r.Timed)
	return u, nil
}

// mid is the first tick of the second half of the timed ticks.
func (u *runner) mid() int { return u.opts.Warmup + (u.steps-u.opts.Warmup)/2 }

// hook runs the scene's hook (Built.PreStep) of the next tick, untimed.
func (u *runner) hook() error {
	if err := u.sim.Built.PreStep(u.sim.World); err != nil {
		return errors.Join(errors.New("bench: scene hook failed"), err)
	}
	return nil
}

// update runs the next tick's Physics.Update, timed, after its hook, and
// adds up its profile.
func (u *runner) update() {
	sim, r, prof := u.sim, u.r, u.prof
	t0 := time.Now()
	sim.Physics.Update(sim.World)
	d := time.Since(t0)
	r.StepTimes = append(r.StepTimes, d)
	r.Total += d
	for s := range u.stages {
		u.stages[s] += prof.Stages[s]
		w, pw := &u.work[s], &prof.Work[s]
		w.Jobs += pw.Jobs
		w.Wall += pw.Wall
		w.Caller += pw.Caller
		w.Others += pw.Others
	}
	u.contacts += prof.Contacts
	if prof.ColoredOnCaller {
		r.ColoredOnCaller++
	}
	r.Swept += prof.Swept
	r.Impacts += prof.Impacts
	r.Rewakes += prof.Rewakes
	u.next++
	if u.opts.Progress != nil {
		u.opts.Progress(u.next, u.steps, r.Total)
	}
}

// finish fills in the timing statistics, the last tick's counters, the
// health check and the checksum (all but the allocation figures).
func (u *runner) finish() *Result {
	r, prof := u.r, u.prof
	n := time.Duration(r.Timed)
	r.Mean = r.Total / n
	for s := range u.stages {
		r.Stages[s] = u.stages[s] / n
		w := &u.work[s]
		r.Work[s] = WorkMean{Jobs: float64(w.Jobs) / float64(r.Timed), Wall: w.Wall / n, Caller: w.Caller / n, Others: w.Others / n}
	}
	sorted := slices.Clone(r.StepTimes)
	slices.Sort(sorted)
	r.Min, r.Max = sorted[0], sorted[len(sorted)-1]
	r.Median = sorted[len(sorted)/2]
	if len(sorted)%2 == 0 {
		r.Median = (sorted[len(sorted)/2-1] + sorted[len(sorted)/2]) / 2
	}
	r.P95 = sorted[int(math.Ceil(0.95*float64(len(sorted))))-1]
	r.Contacts, r.Points, r.Awake, r.Frozen = prof.Contacts, prof.Points, prof.Bodies, prof.Frozen
	r.Islands, r.Pairs, r.Colors = prof.Islands, prof.Pairs, prof.Colors
	r.MeanContacts = float64(u.contacts) / float64(r.Timed)
	r.Health = u.sim.Health()
	r.Checksum = u.sim.Checksum()
	return r
}
