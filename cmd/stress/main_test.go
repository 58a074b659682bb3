package main

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestBadFlagsExitTwo(t *testing.T) {
	for _, args := range [][]string{
		{"-scene", "nope"},
		{"-workers", "0"},
		{"-workers", "1,x"},
		{"-steps", "-1"},
		{"-warmup", "-1"},
		{"-scene", "cool_demo", "-steps", "5", "-warmup", "5"},
		{"-repeat", "0"},
		{"-scale", "0"},
		{"-scale", "NaN"},
		{"-scale", "1e9"},  // 1e13 bodies: ran out of memory
		{"-scale", "1e20"}, // overflowed the body count: "gives no bodies"
		{"-workers", ""},   // set, but empty: took GOMAXPROCS
		{"-pprof", "nonsense"},
		{"-memprofilerate", "-1"},
		{"-interleave", "-1"},
		{"-bogus"},
		{"stray"},
	} {
		var out, errOut bytes.Buffer
		if code := run(args, &out, &errOut); code != 2 {
			t.Errorf("%v: exit %d, want 2 (stderr %q)", args, code, errOut.String())
		}
		if errOut.Len() == 0 {
			t.Errorf("%v: no message on stderr", args)
		}
	}
	var out, errOut bytes.Buffer
	if code := run([]string{"-h"}, &out, &errOut); code != 0 || !strings.Contains(errOut.String(), "-scene") {
		t.Errorf("-h: exit %d, stderr %q", code, errOut.String())
	}
	// An allocation profile that cannot be written fails before the runs,
	// as the other outputs do: with the runs first, the steps asked for here
	// would take minutes.
	out.Reset()
	errOut.Reset()
	bad := filepath.Join(t.TempDir(), "no", "such", "dir", "mem.prof")
	if code := run([]string{"-scene", "many_pyramids", "-steps", "100000", "-workers", "1", "-memprofile", bad}, &out, &errOut); code != 1 ||
		!strings.Contains(errOut.String(), "mem.prof") || out.Len() != 0 {
		t.Errorf("-memprofile %s: exit %d, stdout %q, stderr %q", bad, code, out.String(), errOut.String())
	}
}

func TestJSONAndCSV(t *testing.T) {
	dir := t.TempDir()
	csvPath := filepath.Join(dir, "runs.csv")
	var out, errOut bytes.Buffer
	code := run([]string{"-scene", "cool_demo", "-steps", "40", "-workers", "1,2", "-repeat", "2", "-json",
		"-csv", csvPath}, &out, &errOut)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != 2 {
		t.Fatalf("%d JSON lines, want 2:\n%s", len(lines), out.String())
	}
	for i, line := range lines {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		for _, k := range []string{"scene", "bodies", "steps", "workers", "ms_per_step", "median_ms", "p95_ms",
			"contacts", "health_ok", "health", "checksum", "allocs_per_step", "allocs_per_step_late", "gc_cycles", "awake", "islands", "stages", "core_rtt_ns", "core_rtt_after_ns"} {
			if _, ok := m[k]; !ok {
				t.Errorf("line %d: no field %q", i, k)
			}
		}
		// Measured around every run, since a run has 2 workers, when there
		// are 2 Ps.
		for _, k := range []string{"core_rtt_ns", "core_rtt_after_ns"} {
			if rtt, _ := m[k].(float64); (runtime.GOMAXPROCS(0) > 1) != (rtt > 0) {
				t.Errorf("line %d: %s %v with GOMAXPROCS %d", i, k, m[k], runtime.GOMAXPROCS(0))
			}
		}
		if m["workers"] != float64(i+1) || m["steps"] != 40.0 || m["health_ok"] != true {
			t.Errorf("line %d: %v", i, line)
		}
		stages, _ := m["stages"].(map[string]any)
		if _, ok := stages["solve"]; !ok || len(stages) != 8 {
			t.Errorf("stages %v", stages)
		}
	}
	f, err := os.Open(csvPath)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 3 || rows[0][0] != "scene" || rows[1][0] != "cool_demo" || len(rows[1]) != len(rows[0]) {
		t.Errorf("csv rows %v", rows)
	}
}

func TestHumanOutput(t *testing.T) {
	var out, errOut bytes.Buffer
	if code := run([]string{"-scene", "cool_demo", "-steps", "20", "-workers", "1"}, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for _, want := range []string{"gather", "broadphase", "narrowphase", "islands", "solve", "sleep", "scatter",
		"events", "awake", "contacts", "allocations", "in the second half", "GC cycles", "health: ok", "checksum"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestInterleave runs two worker counts side by side, twice: a report per
// worker count, each saying so, with the same checksum as a run alone, and
// the interleave in the JSON.
func TestInterleave(t *testing.T) {
	var alone, errOut bytes.Buffer
	if code := run([]string{"-scene", "tumbler", "-steps", "30", "-workers", "2", "-json"}, &alone, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	var want map[string]any
	if err := json.Unmarshal(alone.Bytes(), &want); err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	args := []string{"-scene", "tumbler", "-steps", "30", "-workers", "1,2", "-interleave", "4", "-repeat", "2"}
	if code := run(args, &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if n := strings.Count(out.String(), "side by side with the other worker counts (4 ticks a turn)"); n != 2 {
		t.Errorf("%d reports say they ran side by side, want 2:\n%s", n, out.String())
	}
	if n := strings.Count(out.String(), "times as fast as the first worker count (per repeat"); n != 1 {
		t.Errorf("%d reports give the speedup side by side, want 1 (the 2-worker one):\n%s", n, out.String())
	}
	if n := strings.Count(out.String(), "median of 2 runs"); n != 2 {
		t.Errorf("%d reports are medians of 2 runs, want 2:\n%s", n, out.String())
	}
	if !strings.Contains(out.String(), want["checksum"].(string)) {
		t.Errorf("side by side, the checksum of a run alone (%v) is missing:\n%s", want["checksum"], out.String())
	}
	out.Reset()
	if code := run(append(args, "-json"), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	for i, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			t.Fatal(err)
		}
		if m["interleave"] != 4.0 || m["workers"] != float64(i+1) || m["checksum"] != want["checksum"] {
			t.Errorf("line %d: %s", i, line)
		}
		if sp, _ := m["speedup"].(float64); (i == 0 && sp != 1) || (i == 1 && !(sp > 0)) {
			t.Errorf("line %d: speedup %v", i, m["speedup"])
		}
		if sps, _ := m["speedups"].([]any); len(sps) != 2 {
			t.Errorf("line %d: speedups %v, want one per repeat", i, m["speedups"])
		}
		// One round trip per repeat, measured when there are 2 Ps.
		if rtts, _ := m["repeat_rtt_ns"].([]any); (runtime.GOMAXPROCS(0) > 1) != (len(rtts) == 2) {
			t.Errorf("line %d: repeat_rtt_ns %v with GOMAXPROCS %d", i, m["repeat_rtt_ns"], runtime.GOMAXPROCS(0))
		}
	}
	out.Reset()
	errOut.Reset()
	if code := run([]string{"-scene", "cool_demo", "-steps", "5", "-workers", "2", "-interleave", "3"}, &out, &errOut); code != 0 ||
		!strings.Contains(errOut.String(), "-interleave needs two worker counts") {
		t.Errorf("-interleave with one worker count: exit %d, stderr %q", code, errOut.String())
	}
}

func TestCoreRoundTrip(t *testing.T) {
	defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(1))
	if d := coreRoundTrip(); d != 0 {
		t.Errorf("GOMAXPROCS 1: %v, want 0 (not measured)", d)
	}
	runtime.GOMAXPROCS(2)
	if d := coreRoundTrip(); d <= 0 || d > 100*time.Millisecond {
		t.Errorf("GOMAXPROCS 2: %v, want a positive time under a batch's cap", d)
	}
}

// TestJobsFlag: with -jobs, a 2-worker run reports per stage the jobs
// handed out (the narrow phase's one a step) in the table and in -json, and
// gives the checksum of an untimed run; without it the JSON has no "work".
func TestJobsFlag(t *testing.T) {
	if runtime.GOMAXPROCS(0) < 2 {
		t.Skip("needs 2 Ps for a second worker's share")
	}
	args := []string{"-scene", "large_pyramid", "-steps", "6", "-warmup", "1", "-workers", "2"}
	var sums []any
	for _, jobs := range []bool{false, true} {
		a := append(slices.Clone(args), "-json")
		if jobs {
			a = append(a, "-jobs")
		}
		var out, errOut bytes.Buffer
		if code := run(a, &out, &errOut); code != 0 {
			t.Fatalf("%v: exit %d: %s", a, code, errOut.String())
		}
		var m map[string]any
		if err := json.Unmarshal(out.Bytes(), &m); err != nil {
			t.Fatal(err)
		}
		sums = append(sums, m["checksum"])
		work, ok := m["work"].(map[string]any)
		if ok != jobs {
			t.Fatalf("%v: work %v", a, m["work"])
		}
		if !jobs {
			continue
		}
		np, _ := work["narrowphase"].(map[string]any)
		if np["jobs"] != 1.0 || !(np["wall_ms"].(float64) > 0) || !(np["caller_ms"].(float64) > 0) || len(work) != 8 {
			t.Errorf("work %v", work)
		}
	}
	if sums[0] != sums[1] {
		t.Errorf("checksums %v: timing the jobs changed the result", sums)
	}
	var out, errOut bytes.Buffer
	if code := run(append(args, "-jobs"), &out, &errOut); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut.String())
	}
	if !strings.Contains(out.String(), "in jobs") || !strings.Contains(out.String(), "others") || !strings.Contains(out.String(), "alone") {
		t.Errorf("table lacks the job columns:\n%s", out.String())
	}
}
