// Command stress runs Tumble's canonical scenes (package bench, scenes.md)
// and prints where the time of a tick goes: a per-stage table (gather,
// broadphase, narrowphase, islands, solve, sleep, scatter, events), step-time
// statistics, bodies, awake bodies, contacts, islands, allocations and GC
// cycles per step, the scene's health check and a checksum of the final
// transforms. When a run has 2 workers or more, it first prints the host's
// core-to-core round trip (host.go), on which the second worker's gain
// depends, and measures it again before and after every reported run
// (core_rtt_ns and core_rtt_after_ns in -json and -csv): on the VMs Tumble
// is measured on it changes from one stretch of minutes to the next.
//
//	go run ./cmd/stress -scene large_pyramid
//	go run ./cmd/stress -scene all -workers 1,2 -repeat 3
//	go run ./cmd/stress -scene mixed_pile -scale 4 -json
//	go run ./cmd/stress -scene tumbler -workers 1,2 -interleave 25 -repeat 5
//
// With -interleave N, the runs of one scene on the listed worker counts are
// made side by side in one process (bench.RunSideBySide): each simulation in
// turn runs N ticks. Where the host's load, or how fast its cores answer
// each other, changes from one minute to the next, runs one after the other
// can compare two different hosts; side by side, every change falls on all
// of them, so their ratio holds.
//
// Flags:
//
//	-scene NAME     a scene name, a comma-separated list, or "all"
//	-steps N        ticks per run, warm-up included (default: the scene's)
//	-warmup N       untimed ticks at the start (default 1)
//	-workers LIST   comma-separated worker counts, one run each (default GOMAXPROCS)
//	-repeat N       runs per scene and worker count; the median run is reported
//	-interleave N   run a scene's worker counts side by side, N ticks a turn
//	-scale F        body-count factor of circle_rain, mixed_pile and cool_demo (at most 1000)
//	-json           one JSON object per reported run, one per line, on stdout
//	-csv FILE       one CSV row per reported run
//	-cpuprofile F   CPU profile of the whole command
//	-memprofile F   allocation profile at the end (see -memprofilerate)
//	-trace F        runtime/trace execution trace
//	-pprof ADDR     serve net/http/pprof on ADDR (host defaults to 127.0.0.1)
//	-jobs           time each worker's share of the jobs handed out: the columns
//	                jobs, in jobs, caller, others and alone of the stage table,
//	                and "work" in -json (ecs.StageWork)
//
// Profiling: the engine labels its worker goroutines and the stepping
// goroutine with the pprof label "stage", so a CPU profile splits by stage:
//
//	go run ./cmd/stress -scene large_pyramid -cpuprofile cpu.prof && go tool pprof -tagfocus=stage=solve -top cpu.prof
//
// To find allocations per tick:
//
//	go run ./cmd/stress -scene mixed_pile -memprofile mem.prof -memprofilerate 1 && go tool pprof -sample_index=alloc_objects -top mem.prof
//
// Exit status: 0 when every run is healthy, 1 when a health check failed or
// the checksums of one scene differ between worker counts or repeats (the
// engine promises bit-identical results), 2 for bad flags.
package main

import (
	"encoding/csv"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	_ "net/http/pprof" // the -pprof server
	"os"
	"runtime"
	"runtime/pprof"
	"runtime/trace"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/tumble2d/tumble/bench"
	"github.com/tumble2d/tumble/systems"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

// options are the parsed flags.
type options struct {
	scenes         []*bench.Scene
	steps, warmup  int
	coreRTT        time.Duration
	workers        []int
	repeat         int
	interleave     int // ticks a turn when side by side; 0: one after the other
	scale          float64
	json           bool
	csv            string
	cpuProfile     string
	memProfile     string
	memProfileRate int
	trace          string
	pprofAddr      string
	timeJobs       bool
}

// config returns the bench.Options.Config of the runs: nil, or one that
// sets systems.Config.TimeJobs for -jobs.
func (o *options) config() func(*systems.Config) {
	if !o.timeJobs {
		return nil
	}
	return func(c *systems.Config) { c.TimeJobs = true }
}

// usageError is a bad flag value: exit status 2.
type usageError struct{ msg string }

func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

func parseFlags(args []string, stderr io.Writer) (*options, error) {
	fs := flag.NewFlagSet("stress", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sceneFlag := fs.String("scene", "large_pyramid", "scene name, comma-separated names, or \"all\" ("+
		strings.Join(bench.Names(), ", ")+")")
	steps := fs.Int("steps", 0, "ticks per run, warm-up included (0: the scene's default)")
	warmup := fs.Int("warmup", bench.DefaultWarmup, "untimed ticks at the start of each run")
	workersFlag := fs.String("workers", "", "comma-separated worker counts, one run each (default: GOMAXPROCS = "+
		strconv.Itoa(runtime.GOMAXPROCS(0))+")")
	repeat := fs.Int("repeat", 1, "runs per scene and worker count; the median run (by mean ms/step) is reported")
	interleave := fs.Int("interleave", 0, "run each scene's -workers counts side by side in one process, each in turn for this many ticks, so that changes of the host's load fall on all of them (0: one after the other)")
	scale := fs.Float64("scale", 1, "body-count factor of the scalable scenes (circle_rain, mixed_pile, cool_demo)")
	jsonOut := fs.Bool("json", false, "print one JSON object per reported run, one per line, instead of tables")
	csvOut := fs.String("csv", "", "write one CSV row per reported run to this `file`")
	cpu := fs.String("cpuprofile", "", "write a CPU profile to this `file`")
	mem := fs.String("memprofile", "", "write an allocation profile to this `file` at the end")
	memRate := fs.Int("memprofilerate", 0, "set runtime.MemProfileRate (1 records every allocation; 0 keeps the default)")
	traceOut := fs.String("trace", "", "write a runtime/trace execution trace to this `file`")
	timeJobs := fs.Bool("jobs", false, "time each worker's share of the jobs handed to the workers (systems.Config.TimeJobs): adds the columns jobs, in jobs, caller, others and alone to the stage table, and \"work\" to -json")
	pprofAddr := fs.String("pprof", "", "serve net/http/pprof on this `addr`ess, e.g. 127.0.0.1:6060 (a missing host means 127.0.0.1)")
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: stress [flags]\n\nRuns Tumble's canonical scenes and prints per-stage timings.\n\n")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	if fs.NArg() > 0 {
		return nil, usagef("unexpected argument %q (flags only)", fs.Arg(0))
	}
	o := &options{steps: *steps, warmup: *warmup, repeat: *repeat, interleave: *interleave, scale: *scale, json: *jsonOut, csv: *csvOut,
		cpuProfile: *cpu, memProfile: *mem, memProfileRate: *memRate, trace: *traceOut, pprofAddr: *pprofAddr, timeJobs: *timeJobs}

	if *sceneFlag == "all" {
		o.scenes = bench.Scenes()
	} else {
		for _, name := range strings.Split(*sceneFlag, ",") {
			s, err := bench.Lookup(strings.TrimSpace(name))
			if err != nil {
				return nil, usagef("-scene: unknown scene %q (known: all, %s)", name, strings.Join(bench.Names(), ", "))
			}
			o.scenes = append(o.scenes, s)
		}
	}
	workersSet := false
	fs.Visit(func(f *flag.Flag) { workersSet = workersSet || f.Name == "workers" })
	if *workersFlag == "" && workersSet {
		return nil, usagef("-workers: empty (want a list such as 1,2,4, or leave it out for GOMAXPROCS)")
	}
	if *workersFlag == "" {
		o.workers = []int{runtime.GOMAXPROCS(0)}
	} else {
		for _, f := range strings.Split(*workersFlag, ",") {
			n, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || n < 1 {
				return nil, usagef("-workers: %q is not a worker count >= 1 (want a list such as 1,2,4)", f)
			}
			o.workers = append(o.workers, n)
		}
	}
	switch {
	case o.steps < 0:
		return nil, usagef("-steps %d: must be >= 0 (0 means the scene's default)", o.steps)
	case o.warmup < 0:
		return nil, usagef("-warmup %d: must be >= 0", o.warmup)
	case o.repeat < 1:
		return nil, usagef("-repeat %d: must be >= 1", o.repeat)
	case o.interleave < 0:
		return nil, usagef("-interleave %d: must be >= 0 (0 runs the worker counts one after the other)", o.interleave)
	case !(o.scale > 0) || o.scale > bench.MaxScale:
		return nil, usagef("-scale %v: must be > 0 and at most %d (10 million bodies in the rain and pile scenes)", o.scale, bench.MaxScale)
	case o.memProfileRate < 0:
		return nil, usagef("-memprofilerate %d: must be >= 0", o.memProfileRate)
	}
	if o.pprofAddr != "" {
		addr, err := pprofAddress(o.pprofAddr)
		if err != nil {
			return nil, err
		}
		o.pprofAddr = addr
	}
	for _, s := range o.scenes {
		steps := o.steps
		if steps == 0 {
			steps = s.Steps
		}
		if o.warmup >= steps {
			return nil, usagef("-warmup %d leaves no timed ticks of the %d of %s", o.warmup, steps, s.Name)
		}
	}
	return o, nil
}

func run(args []string, stdout, stderr io.Writer) int {
	o, err := parseFlags(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err != nil {
		var ue usageError
		if errors.As(err, &ue) {
			fmt.Fprintf(stderr, "stress: %v\nRun 'stress -h' for the flags.\n", err)
		}
		// The flag package has already printed its own parse errors.
		return 2
	}
	if err := execute(o, stdout, stderr); err != nil {
		fmt.Fprintf(stderr, "stress: %v\n", err)
		if errors.As(err, new(usageError)) {
			return 2
		}
		return 1 // a failed health check, a determinism failure, or an I/O error
	}
	return 0
}

// failure is an unhealthy or non-deterministic result: exit status 1 after
// everything has been printed.
type failure struct{ msg string }

func (e failure) Error() string { return e.msg }

func execute(o *options, stdout, stderr io.Writer) (err error) {
	if o.memProfileRate > 0 {
		runtime.MemProfileRate = o.memProfileRate
	}
	if o.pprofAddr != "" {
		ln, err := net.Listen("tcp", o.pprofAddr)
		if err != nil {
			return fmt.Errorf("-pprof: %w", err)
		}
		defer ln.Close()
		fmt.Fprintf(stderr, "stress: pprof on http://%s/debug/pprof/\n", ln.Addr())
		go func() { _ = http.Serve(ln, nil) }()
	}
	if o.cpuProfile != "" {
		done, perr := startFile(o.cpuProfile, pprof.StartCPUProfile, pprof.StopCPUProfile)
		if perr != nil {
			return perr
		}
		defer finishInto(&err, done)
	}
	if o.trace != "" {
		done, terr := startFile(o.trace, trace.Start, trace.Stop)
		if terr != nil {
			return terr
		}
		defer finishInto(&err, done)
	}
	// The allocation profile is written at the end, but its file is made
	// now: a path that cannot be written fails before the runs, as the
	// other outputs do.
	var memFile *os.File
	if o.memProfile != "" {
		if memFile, err = os.Create(o.memProfile); err != nil {
			return err
		}
		defer memFile.Close() // after writeMemProfile's close: a no-op
	}
	var cw *csv.Writer
	if o.csv != "" {
		startCSV := func(w io.Writer) error {
			cw = csv.NewWriter(w)
			return cw.Write(csvHeader())
		}
		done, cerr := startFile(o.csv, startCSV, func() { cw.Flush() })
		if cerr != nil {
			return cerr
		}
		defer finishInto(&err, done)
	}

	progress := !o.json && isTerminal(os.Stderr)
	if slices.Max(o.workers) > 1 {
		o.coreRTT = coreRoundTrip()
		if !o.json {
			fmt.Fprintf(stdout, "host: GOMAXPROCS %d, core-to-core round trip %d ns (see README: what 2 workers gain depends on it)\n\n",
				runtime.GOMAXPROCS(0), o.coreRTT.Nanoseconds())
		}
	}
	var reports []*report
	for _, s := range o.scenes {
		if o.scale != 1 && !s.Scalable && !o.json {
			fmt.Fprintf(stderr, "stress: %s does not scale; -scale %v ignored\n", s.Name, o.scale)
		}
		var reps []*report
		if o.interleave > 0 && len(o.workers) == 1 && !o.json {
			fmt.Fprintf(stderr, "stress: -interleave needs two worker counts or more; %s runs alone\n", s.Name)
		}
		if o.interleave > 0 && len(o.workers) > 1 {
			rs, err := measureSideBySide(s, o, progress, stderr)
			if err != nil {
				return err
			}
			reps = rs
		}
		for i, workers := range o.workers {
			var rep *report
			if reps != nil {
				rep = reps[i]
			} else {
				r, err := measure(s, o, workers, progress, stderr)
				if err != nil {
					return err
				}
				rep = r
			}
			reports = append(reports, rep)
			if o.json {
				if err := writeJSON(stdout, rep); err != nil {
					return err
				}
			} else {
				printReport(stdout, rep)
			}
			if cw != nil {
				_ = cw.Write(csvRow(rep))
				if cw.Flush(); cw.Error() != nil {
					return fmt.Errorf("-csv: %w", cw.Error())
				}
			}
		}
	}
	if !o.json && len(reports) > 1 {
		printSummary(stdout, reports)
	}
	if memFile != nil {
		if err := writeMemProfile(memFile); err != nil {
			return err
		}
	}
	return verdict(reports)
}

// report is one reported run: the median of the repeats.
type report struct {
	*bench.Result
	runs  []*bench.Result // every repeat, in run order
	about string
	// coreRTT and coreRTTAfter are the core-to-core round trip
	// (coreRoundTrip) just before the first repeat and just after the
	// last; 0 when not measured (no run of the command has 2 workers).
	coreRTT, coreRTTAfter time.Duration
	// interleave is the ticks a turn when the runs were side by side with
	// the scene's other worker counts, else 0.
	interleave int
	// speedups, side by side, holds for each repeat the mean ms/step of the
	// first worker count over this one's in the same repeat: a ratio of two
	// runs made under the same conditions.
	speedups []float64
	// repeatRTT, side by side, is the core-to-core round trip measured just
	// before each repeat (when measured at all).
	repeatRTT []time.Duration
}

// speedup returns the median of the speedups, or 0 when there are none.
func (rep *report) speedup() float64 {
	if len(rep.speedups) == 0 {
		return 0
	}
	s := slices.Clone(rep.speedups)
	slices.Sort(s)
	if n := len(s); n%2 == 0 {
		return (s[n/2-1] + s[n/2]) / 2
	}
	return s[len(s)/2]
}

// add records one repeat.
func (rep *report) add(r *bench.Result) { rep.runs = append(rep.runs, r) }

// repeats returns the mean ms/step of every repeat, in run order.
func (rep *report) repeats() []float64 {
	ms := make([]float64, len(rep.runs))
	for i, r := range rep.runs {
		ms[i] = r.MsPerStep()
	}
	return ms
}

// healthy reports whether every repeat passed its health check.
func (rep *report) healthy() bool {
	for _, r := range rep.runs {
		if !r.Health.OK {
			return false
		}
	}
	return true
}

// pick sets the reported run to the median of the repeats (by mean
// ms/step).
func (rep *report) pick() {
	sorted := slices.Clone(rep.runs)
	slices.SortStableFunc(sorted, func(a, b *bench.Result) int { return int(a.Mean - b.Mean) })
	rep.Result = sorted[(len(sorted)-1)/2]
}

// measure runs scene s o.repeat times on workers and returns the median run.
func measure(s *bench.Scene, o *options, workers int, progress bool, stderr io.Writer) (*report, error) {
	rep := &report{about: s.About}
	if o.coreRTT > 0 {
		rep.coreRTT = coreRoundTrip()
		defer func() { rep.coreRTTAfter = coreRoundTrip() }()
	}
	for i := 0; i < o.repeat; i++ {
		opts := bench.Options{Workers: workers, Steps: o.steps, Warmup: o.warmup, Scale: o.scale, Config: o.config()}
		var p *progressLine
		if progress {
			p = newProgressLine(stderr, s.Name, workers, o.warmup)
			opts.Progress = p.update
		}
		r, err := bench.Run(s, opts)
		if p != nil {
			p.clear()
		}
		if err != nil {
			return nil, err
		}
		rep.add(r)
	}
	rep.pick()
	return rep, nil
}

// measureSideBySide runs scene s o.repeat times on all of o.workers side by
// side (bench.RunSideBySide, o.interleave ticks a turn) and returns the
// median run of each worker count, in the order of o.workers. The order of
// the turns is reversed every other repeat: a turn starts with the caches
// holding the last turn's data and with its own helpers parked (a turn
// outlasts their spin), and the last turn's helpers spin into it for up to
// a millisecond; alternating shares those costs out.
func measureSideBySide(s *bench.Scene, o *options, progress bool, stderr io.Writer) ([]*report, error) {
	reps := make([]*report, len(o.workers))
	for i := range reps {
		reps[i] = &report{about: s.About, interleave: o.interleave}
	}
	var before time.Duration
	for k := 0; k < o.repeat; k++ {
		// The round trip before each repeat: the host can change state from
		// one repeat to the next, and each repeat's speedup is a ratio of
		// runs made in the same one.
		if o.coreRTT > 0 {
			rtt := coreRoundTrip()
			if k == 0 {
				before = rtt
			}
			for _, rep := range reps {
				rep.repeatRTT = append(rep.repeatRTT, rtt)
			}
		}
		order := make([]int, len(o.workers)) // order[i]: the worker count of turn i
		for i := range order {
			order[i] = i
			if k%2 == 1 {
				order[i] = len(order) - 1 - i
			}
		}
		opts := make([]bench.Options, len(order))
		for i, c := range order {
			opts[i] = bench.Options{Workers: o.workers[c], Steps: o.steps, Warmup: o.warmup, Scale: o.scale, Config: o.config()}
		}
		var p *progressLine
		if progress {
			p = newProgressLine(stderr, s.Name, opts[0].Workers, o.warmup)
			opts[0].Progress = p.update
		}
		rs, err := bench.RunSideBySide(s, opts, o.interleave)
		if p != nil {
			p.clear()
		}
		if err != nil {
			return nil, err
		}
		byCount := make([]*bench.Result, len(rs))
		for i, c := range order {
			byCount[c] = rs[i]
		}
		for c, r := range byCount {
			reps[c].add(r)
			reps[c].speedups = append(reps[c].speedups, float64(byCount[0].Mean)/float64(r.Mean))
		}
	}
	var after time.Duration
	if o.coreRTT > 0 {
		after = coreRoundTrip()
	}
	for _, rep := range reps {
		rep.pick()
		rep.coreRTT, rep.coreRTTAfter = before, after
	}
	return reps, nil
}

// verdict returns a failure for unhealthy runs and for checksums of one
// scene that differ between worker counts or repeats.
func verdict(reports []*report) error {
	var msgs []string
	sums := map[string]map[string]bool{}
	var order []string
	for _, r := range reports {
		if !r.healthy() {
			msgs = append(msgs, fmt.Sprintf("%s on %d workers: health check failed", r.Scene, r.Workers))
		}
		if sums[r.Scene] == nil {
			sums[r.Scene] = map[string]bool{}
			order = append(order, r.Scene)
		}
		for _, run := range r.runs {
			sums[r.Scene][run.Checksum] = true
		}
	}
	for _, name := range order {
		if len(sums[name]) > 1 {
			msgs = append(msgs, fmt.Sprintf("%s: checksums differ between runs (%d distinct): results are not deterministic",
				name, len(sums[name])))
		}
	}
	if len(msgs) > 0 {
		return failure{strings.Join(msgs, "; ")}
	}
	return nil
}

// pprofAddress fills in 127.0.0.1 for a missing host.
func pprofAddress(addr string) (string, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return "", usagef("-pprof %q: want host:port or :port (%v)", addr, err)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// writeMemProfile writes the allocation profile to f and closes it.
func writeMemProfile(f *os.File) error {
	runtime.GC()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		_ = f.Close()
		return err
	}
	return f.Close()
}

// startFile creates path and starts writing to it with start. The returned
// done stops the writer and closes the file, returning the close error,
// which for a written file is where a full disk shows.
func startFile(path string, start func(io.Writer) error, stop func()) (done func() error, err error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, err
	}
	if err := start(f); err != nil {
		_ = f.Close()
		return nil, err
	}
	return func() error {
		stop()
		return f.Close()
	}, nil
}

// finishInto runs done and keeps its error in *err unless *err already holds
// one.
func finishInto(err *error, done func() error) {
	if derr := done(); derr != nil && *err == nil {
		*err = derr
	}
}

// isTerminal reports whether f is a character device (a terminal).
func isTerminal(f *os.File) bool {
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// progressLine prints "scene w=N: done/total steps, x.xx ms/step" on stderr,
// rewriting one line, once a run has taken more than 2 s. It reuses one
// buffer, so it does not allocate inside the measured loop.
type progressLine struct {
	w       io.Writer
	prefix  string
	warmup  int
	start   time.Time
	last    time.Time
	buf     []byte
	printed bool
}

func newProgressLine(w io.Writer, scene string, workers, warmup int) *progressLine {
	return &progressLine{w: w, prefix: "\r" + scene + " w=" + strconv.Itoa(workers) + ": ", warmup: warmup,
		start: time.Now(), buf: make([]byte, 0, 128)}
}

func (p *progressLine) update(done, total int, timed time.Duration) {
	now := time.Now()
	if now.Sub(p.start) < 2*time.Second || now.Sub(p.last) < 250*time.Millisecond {
		return
	}
	p.last = now
	b := append(p.buf[:0], p.prefix...)
	b = strconv.AppendInt(b, int64(done), 10)
	b = append(b, '/')
	b = strconv.AppendInt(b, int64(total), 10)
	b = append(b, " steps, "...)
	b = strconv.AppendFloat(b, float64(timed)/1e6/float64(max(1, done-p.warmup)), 'f', 2, 64)
	b = append(b, " ms/step so far   "...)
	p.buf = b
	_, _ = p.w.Write(b)
	p.printed = true
}

func (p *progressLine) clear() {
	if p.printed {
		_, _ = io.WriteString(p.w, "\r\033[K")
	}
}
