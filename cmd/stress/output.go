package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"runtime"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/tumble2d/tumble/bench"
	"github.com/tumble2d/tumble/ecs"
)

func ms(d time.Duration) float64 { return float64(d) / 1e6 }

// printReport prints the human-readable block of one run.
func printReport(w io.Writer, r *report) {
	fmt.Fprintf(w, "%s: %s\n", r.Scene, r.about)
	fmt.Fprintf(w, "  %d bodies, %d workers, %d steps (%d untimed), scale %g, build %.1f ms",
		r.Bodies, r.Workers, r.Steps, r.Warmup, r.Scale, ms(r.BuildTime))
	if len(r.runs) > 1 {
		fmt.Fprintf(w, ", median of %d runs (ms/step %s)", len(r.runs), joinFloats(r.repeats(), 2, " "))
	}
	if r.interleave > 0 {
		fmt.Fprintf(w, ", side by side with the other worker counts (%d ticks a turn)", r.interleave)
	}
	fmt.Fprintln(w)
	if len(r.speedups) > 0 && r.speedup() != 1 {
		per := joinFloats(r.speedups, 3, " ")
		if len(r.repeatRTT) == len(r.speedups) {
			parts := make([]string, len(r.speedups))
			for i, x := range r.speedups {
				parts[i] = fmt.Sprintf("%.3f at %d ns", x, r.repeatRTT[i].Nanoseconds())
			}
			per = strings.Join(parts, ", ")
		}
		fmt.Fprintf(w, "  side by side: %.3f times as fast as the first worker count (per repeat, with the round trip before it: %s)\n",
			r.speedup(), per)
	}
	// With -jobs, the columns of ecs.StageWork, in ms per step: the jobs'
	// wall time, the time the caller and the other workers ran their
	// items, and the stage's time outside the jobs, which the caller ran
	// alone (docs/performance.md: "Where a second worker's time goes").
	jobs := !stageWork(r.Work).IsZero() // zero on 1 worker
	if jobs {
		fmt.Fprintf(w, "  %-18s %10s %6s %6s %9s %9s %9s %9s\n", "stage", "ms/step", "%", "jobs", "in jobs", "caller", "others", "alone")
	} else {
		fmt.Fprintf(w, "  %-18s %10s %6s\n", "stage", "ms/step", "%")
	}
	mean := ms(r.Mean)
	var sum time.Duration
	for s := ecs.Stage(0); s < ecs.NumStages; s++ {
		d := r.Stages[s]
		sum += d
		if jobs {
			wk := &r.Work[s]
			fmt.Fprintf(w, "  %-18s %10.4f %6.1f %6.1f %9.4f %9.4f %9.4f %9.4f\n", s, ms(d), pct(ms(d), mean),
				wk.Jobs, ms(wk.Wall), ms(wk.Caller), ms(wk.Others), ms(max(d-wk.Wall, 0)))
			continue
		}
		fmt.Fprintf(w, "  %-18s %10.4f %6.1f\n", s, ms(d), pct(ms(d), mean))
	}
	fmt.Fprintf(w, "  %-18s %10.4f %6.1f\n", "(outside stages)", ms(r.Mean-sum), pct(ms(r.Mean-sum), mean))
	fmt.Fprintf(w, "  %-18s %10.4f %6.1f\n", "total", mean, 100.0)
	fmt.Fprintf(w, "  step ms: mean %.3f, median %.3f, p95 %.3f, min %.3f, max %.3f\n",
		mean, ms(r.Median), ms(r.P95), ms(r.Min), ms(r.Max))
	fmt.Fprintf(w, "  bodies %d, awake %d, contacts %d (%d points, %.0f on average), islands %d\n",
		r.Bodies, r.Awake, r.Contacts, r.Points, r.MeanContacts, r.Islands)
	fmt.Fprintf(w, "  candidate pairs %d, colours %d (last step)\n", r.Pairs, r.Colors)
	if r.ColoredOnCaller > 0 {
		fmt.Fprintf(w, "  coloured contacts solved on the caller alone in %d of %d steps (timed: see docs/architecture.md)\n",
			r.ColoredOnCaller, r.Timed)
	}
	if r.Swept > 0 {
		fmt.Fprintf(w, "  continuous collision: %.1f fast bodies swept per step, %d put back to their time of impact\n",
			float64(r.Swept)/float64(max(r.Timed, 1)), r.Impacts)
	}
	if r.Rewakes > 0 {
		fmt.Fprintf(w, "  steps went back %d times to wake a sleeper a body was about to touch\n", r.Rewakes)
	}
	fmt.Fprintf(w, "  allocations %.2f per step (%.0f B), %.2f in the second half, GC cycles %d\n",
		r.AllocsPerStep, r.BytesPerStep, r.LateAllocsPerStep, r.GCCycles)
	if r.coreRTT > 0 {
		fmt.Fprintf(w, "  core-to-core round trip %d ns before the runs, %d ns after\n",
			r.coreRTT.Nanoseconds(), r.coreRTTAfter.Nanoseconds())
	}
	fmt.Fprintf(w, "  health: %s\n", r.Health)
	if !r.healthy() && r.Health.OK {
		fmt.Fprintf(w, "  health: FAILED in another of the %d repeats\n", len(r.runs))
	}
	fmt.Fprintf(w, "  checksum %s\n\n", r.Checksum)
}

func pct(x, total float64) float64 {
	if total == 0 {
		return 0
	}
	return 100 * x / total
}

// printSummary prints one line per run and whether each scene's checksums
// agree across worker counts.
func printSummary(w io.Writer, reports []*report) {
	fmt.Fprintln(w, "summary")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "  scene\tworkers\tms/step\tmedian\tp95\tcontacts\tawake\tallocs/step\thealth\tchecksum\trtt ns\n")
	for _, r := range reports {
		h := "ok"
		if !r.healthy() {
			h = "FAILED"
		}
		rtt := "-"
		if r.coreRTT > 0 {
			rtt = fmt.Sprintf("%d/%d", r.coreRTT.Nanoseconds(), r.coreRTTAfter.Nanoseconds())
		}
		fmt.Fprintf(tw, "  %s\t%d\t%.3f\t%.3f\t%.3f\t%d\t%d\t%.2f\t%s\t%s\t%s\n", r.Scene, r.Workers, ms(r.Mean),
			ms(r.Median), ms(r.P95), r.Contacts, r.Awake, r.AllocsPerStep, h, r.Checksum, rtt)
	}
	_ = tw.Flush()
	seen := map[string][]string{}
	var order []string
	for _, r := range reports {
		if _, ok := seen[r.Scene]; !ok {
			order = append(order, r.Scene)
		}
		for _, run := range r.runs {
			if !contains(seen[r.Scene], run.Checksum) {
				seen[r.Scene] = append(seen[r.Scene], run.Checksum)
			}
		}
	}
	for _, name := range order {
		if n := len(seen[name]); n > 1 {
			fmt.Fprintf(w, "  %s: %d different checksums across runs: NOT deterministic\n", name, n)
		}
	}
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// record is the JSON object of one reported run.
type record struct {
	Scene         string             `json:"scene"`
	Scale         float64            `json:"scale"`
	Bodies        int                `json:"bodies"`
	Steps         int                `json:"steps"`
	Warmup        int                `json:"warmup"`
	Workers       int                `json:"workers"`
	MsPerStep     float64            `json:"ms_per_step"` // mean
	MedianMs      float64            `json:"median_ms"`
	P95Ms         float64            `json:"p95_ms"`
	MinMs         float64            `json:"min_ms"`
	MaxMs         float64            `json:"max_ms"`
	BuildMs       float64            `json:"build_ms"`
	Contacts      int                `json:"contacts"`
	Points        int                `json:"points"`
	MeanContacts  float64            `json:"mean_contacts"`
	HealthOK      bool               `json:"health_ok"`
	Health        string             `json:"health"`
	HealthValues  map[string]float64 `json:"health_values"`
	Checksum      string             `json:"checksum"`
	AllocsPerStep float64            `json:"allocs_per_step"`
	// LateAllocsPerStep: the second half of the timed ticks only, once
	// a forming scene has grown its buffers.
	LateAllocsPerStep float64 `json:"allocs_per_step_late"`
	BytesPerStep      float64 `json:"bytes_per_step"`
	GCCycles          uint32  `json:"gc_cycles"`
	Awake             int     `json:"awake"`
	Islands           int     `json:"islands"`
	Pairs             int     `json:"pairs"`  // broad-phase candidate pairs, last step
	Colors            int     `json:"colors"` // graph colours of the large islands, last step
	// ColoredOnCaller counts the timed steps whose coloured contacts the
	// solver chose to solve on the caller alone.
	ColoredOnCaller int `json:"colored_on_caller_steps"`
	// Swept and Impacts are the totals over the timed steps of the fast
	// bodies swept against static ones and of those put back.
	Swept   int `json:"swept"`
	Impacts int `json:"impacts"`
	// Rewakes is the total over the timed steps of the ticks sent back to
	// wake a sleeper that a body was about to touch.
	Rewakes int        `json:"rewakes"`
	Stages  stageTimes `json:"stages"`
	// Work is, per stage, the jobs handed to the workers: jobs per step
	// and ms per step of their wall time and of the caller's and the
	// other workers' time running them (ecs.StageWork); left out on 1
	// worker and without -jobs.
	Work       stageWork `json:"work,omitzero"`
	Repeats    []float64 `json:"repeats_ms_per_step"`
	Go         string    `json:"go"`
	GOMAXPROCS int       `json:"gomaxprocs"`
	// CoreRTTNs and CoreRTTAfterNs are the core-to-core round trip
	// (coreRoundTrip) just before and just after this run's repeats, when a
	// run of the command has 2 workers or more, else 0.
	CoreRTTNs      int64 `json:"core_rtt_ns"`
	CoreRTTAfterNs int64 `json:"core_rtt_after_ns"`
	// Interleave is the ticks a turn when the run was side by side with
	// the scene's other worker counts (-interleave), else 0.
	Interleave int `json:"interleave"`
	// Speedup, side by side, is the median over the repeats of the first
	// worker count's mean ms/step over this one's in the same repeat (1 for
	// the first); else 0. Speedups has each repeat's, and RepeatRTTNs the
	// core-to-core round trip measured just before each repeat.
	Speedup     float64   `json:"speedup"`
	Speedups    []float64 `json:"speedups,omitempty"`
	RepeatRTTNs []int64   `json:"repeat_rtt_ns,omitempty"`
}

// stageTimes marshals as a JSON object of stage name -> ms per step, in
// pipeline order.
type stageTimes [ecs.NumStages]time.Duration

// MarshalJSON writes {"gather": ms, "broadphase": ms, ...}.
func (st stageTimes) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for s := ecs.Stage(0); s < ecs.NumStages; s++ {
		if s > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "%q:%s", s.String(), strconv.FormatFloat(ms(st[s]), 'g', 6, 64))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// stageWork marshals as a JSON object of stage name -> {"jobs",
// "wall_ms", "caller_ms", "others_ms"}, in pipeline order; the record
// leaves it out when no job was timed (1 worker, or no -jobs).
type stageWork [ecs.NumStages]bench.WorkMean

// IsZero reports whether no stage handed out a job (for omitempty).
func (sw stageWork) IsZero() bool { return sw == stageWork{} }

// MarshalJSON writes {"gather": {...}, "broadphase": {...}, ...}.
func (sw stageWork) MarshalJSON() ([]byte, error) {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	var b bytes.Buffer
	b.WriteByte('{')
	for s := ecs.Stage(0); s < ecs.NumStages; s++ {
		if s > 0 {
			b.WriteByte(',')
		}
		w := &sw[s]
		fmt.Fprintf(&b, `%q:{"jobs":%s,"wall_ms":%s,"caller_ms":%s,"others_ms":%s}`, s.String(),
			g(w.Jobs), g(ms(w.Wall)), g(ms(w.Caller)), g(ms(w.Others)))
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

func newRecord(r *report) record {
	hv := map[string]float64{}
	for _, v := range r.Health.Values {
		hv[v.Name] = v.Value
	}
	return record{Scene: r.Scene, Scale: r.Scale, Bodies: r.Bodies, Steps: r.Steps, Warmup: r.Warmup,
		Workers: r.Workers, MsPerStep: ms(r.Mean), MedianMs: ms(r.Median), P95Ms: ms(r.P95), MinMs: ms(r.Min),
		MaxMs: ms(r.Max), BuildMs: ms(r.BuildTime), Contacts: r.Contacts, Points: r.Points,
		MeanContacts: r.MeanContacts, HealthOK: r.healthy(), Health: r.Health.Message, HealthValues: hv,
		Checksum: r.Checksum, AllocsPerStep: r.AllocsPerStep, LateAllocsPerStep: r.LateAllocsPerStep, BytesPerStep: r.BytesPerStep, GCCycles: r.GCCycles,
		Awake: r.Awake, Islands: r.Islands, Pairs: r.Pairs, Colors: r.Colors, ColoredOnCaller: r.ColoredOnCaller, Swept: r.Swept, Impacts: r.Impacts, Rewakes: r.Rewakes, Stages: r.Stages, Work: r.Work, Repeats: r.repeats(), Go: runtime.Version(),
		GOMAXPROCS: runtime.GOMAXPROCS(0), CoreRTTNs: r.coreRTT.Nanoseconds(), CoreRTTAfterNs: r.coreRTTAfter.Nanoseconds(), Interleave: r.interleave, Speedup: r.speedup(), Speedups: r.speedups, RepeatRTTNs: nanos(r.repeatRTT)}
}

func writeJSON(w io.Writer, r *report) error {
	b, err := json.Marshal(newRecord(r))
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

var csvColumns = []string{"scene", "scale", "bodies", "steps", "warmup", "workers", "ms_per_step", "median_ms",
	"p95_ms", "min_ms", "max_ms", "build_ms", "contacts", "awake", "islands", "allocs_per_step", "allocs_per_step_late", "bytes_per_step",
	"gc_cycles", "colored_on_caller_steps", "swept", "impacts", "rewakes", "health_ok", "health", "checksum", "core_rtt_ns", "core_rtt_after_ns", "interleave", "speedup"}

// csvHeader returns the CSV column names: csvColumns, then one column per
// stage.
func csvHeader() []string {
	cols := append([]string{}, csvColumns...)
	for s := ecs.Stage(0); s < ecs.NumStages; s++ {
		cols = append(cols, "stage_"+s.String()+"_ms")
	}
	return cols
}

// csvRow returns the CSV fields of one run, in the order of csvHeader.
func csvRow(r *report) []string {
	g := func(x float64) string { return strconv.FormatFloat(x, 'g', 6, 64) }
	fields := []string{r.Scene, g(r.Scale), strconv.Itoa(r.Bodies), strconv.Itoa(r.Steps), strconv.Itoa(r.Warmup),
		strconv.Itoa(r.Workers), g(ms(r.Mean)), g(ms(r.Median)), g(ms(r.P95)), g(ms(r.Min)), g(ms(r.Max)),
		g(ms(r.BuildTime)), strconv.Itoa(r.Contacts), strconv.Itoa(r.Awake), strconv.Itoa(r.Islands),
		g(r.AllocsPerStep), g(r.LateAllocsPerStep), g(r.BytesPerStep), strconv.FormatUint(uint64(r.GCCycles), 10),
		strconv.Itoa(r.ColoredOnCaller), strconv.Itoa(r.Swept), strconv.Itoa(r.Impacts), strconv.Itoa(r.Rewakes), strconv.FormatBool(r.healthy()), r.Health.Message, r.Checksum, strconv.FormatInt(r.coreRTT.Nanoseconds(), 10),
		strconv.FormatInt(r.coreRTTAfter.Nanoseconds(), 10), strconv.Itoa(r.interleave), g(r.speedup())}
	for s := ecs.Stage(0); s < ecs.NumStages; s++ {
		fields = append(fields, g(ms(r.Stages[s])))
	}
	return fields
}

// nanos returns the durations in nanoseconds.
func nanos(ds []time.Duration) []int64 {
	out := make([]int64, len(ds))
	for i, d := range ds {
		out[i] = d.Nanoseconds()
	}
	return out
}

func joinFloats(xs []float64, prec int, sep string) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.FormatFloat(x, 'f', prec, 64)
	}
	return strings.Join(parts, sep)
}
