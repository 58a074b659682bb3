package solver

import (
	"math"
	"unsafe"

	"github.com/tumble2d/tumble/internal/prefetch"
)

// The substeps of a group solved in halves, in as few jobs as the order
// allows.
//
// Stage by stage, a substep of a group in halves was five jobs: the
// integration of the velocities, the warm start, the solve, the
// integration of the positions and the relax, each handed to the other
// worker and waited for (the three passes run the seam on the caller
// first, or last when taken backwards). On a host whose cores answer each
// other in about 1 us a job costs 3-5 us more than its work: tumbler's
// integrations took 0.058 ms a step on 2 workers against 0.067 on one.
//
// A half's worker owns the rows of its half for the length of a job, so it
// may run several stages in one job, in order, wherever no seam pass
// (which touches rows of both halves) comes between them:
//   - An integration right after or right before the halves' part of a
//     pass joins that job, over all the rows of each half.
//   - An integration between two seam passes (the positions, between a
//     solve taken backwards and a relax taken forwards; the velocities,
//     between a relax taken backwards and the next warm start) is split:
//     the caller integrates the rows a seam or overflow link touches
//     (halves.seamRows) before the next seam pass, and each half's worker
//     the rest of its rows in its next job, since nothing else touches
//     them in between.
//   - The kinematic rows the wide kernels read hold the delta pose of the
//     pass (setKinematic); where it changes (from the solve to the relax)
//     the job so far is run first.
//
// So a substep takes two jobs (three with kinematic rows when the solve
// goes forwards, its relax then needing a new pose; three with
// ForwardColorOrder, whose passes all go forwards), and the step's four
// substeps 9 (11 with kinematic rows, 13 forwards) instead of 20. Each row is integrated once and each
// pass runs in the same order as before, so the results are the same bits.

// halvesStageJobs runs each stage of the halves in a job of its own, as
// before the stages were joined; tests set it to check that joining them
// changes no result.
var halvesStageJobs = false

// halvesMaxOps bounds the stages of one halves job; a job that would take
// more runs first, which the order always allows.
const halvesMaxOps = 8

// halfOp is one stage of a halves job, run by each half's worker over its
// own half.
type halfOp struct {
	mode    int // an integration mode, or the stage mode of a pass
	rest    bool
	reverse bool
	bounces bool
	flip    bool
	elapsed float64
}

// halvesJob gathers the stages of the halves' next job.
type halvesJob struct {
	ops [halvesMaxOps]halfOp
	wps [halvesMaxOps]*wideParams // each pass's constants, for the wide kernels
	n   int
	// ordered is set when a stage in the job must run before the next
	// seam pass (a pass, or an integration of all the rows); integrations
	// of the rest rows alone need not.
	ordered bool
	// kinAt is the time into the step whose delta pose the kinematic rows
	// hold (NaN: unknown).
	kinAt float64
	// The seam rows' lines (see takeSeamRows): the caller has asked for
	// them since the last job (taken), so the job being run has its halves
	// ask for theirs back (retake).
	multi, taken, retake bool
}

// solveHalves is solveLarge for the group t.g solved in halves.
func (s *Solver) solveHalves(ex Executor, t *stageTask) {
	g := t.g
	j := &s.halves.job
	j.n, j.ordered, j.kinAt = 0, false, math.NaN()
	j.multi, j.taken = ex.Workers() > 1 && seamPrefetch, false
	s.halves.task = halvesTask{s: s, t: t}
	if !s.boundFrames(ex, t) {
		return
	}
	for sub := 0; sub < s.p.substeps; sub++ {
		elapsed := float64(sub) * s.p.h
		if sub == 0 {
			// With the integration (boundlarge.go); nothing is waiting.
			t.mode, t.base = modeBoundStart, int(g.rowChunks[0])
			ex.For(int(g.rowChunks[1]-g.rowChunks[0]), HeavyItems, t)
		} else {
			s.halvesRows(ex, t, modeIntegrateVelocities)
		}
		flip := sub&1 == 1 // see solveLarge
		s.halvesPass(ex, t, halfOp{mode: modeWarmStart, flip: flip})
		s.halvesPass(ex, t, halfOp{mode: modeSolve, elapsed: elapsed, flip: flip, reverse: flip && !s.forward})
		s.halvesRows(ex, t, modeIntegratePositions)
		s.halvesPass(ex, t, halfOp{mode: modeRelax, elapsed: elapsed + s.p.h, flip: !flip, reverse: !flip && !s.forward})
	}
	s.runHalves(ex)
	s.largeBounds(ex, t)
	s.halvesPass(ex, t, halfOp{mode: modeRestitution, bounces: true})
	s.runHalves(ex)
	s.largeRestLimits(ex, t)
}

// halvesRows integrates the rows of the halves (mode
// modeIntegrateVelocities or modeIntegratePositions) at this point of the
// order: in the waiting job if it holds a stage that must precede the next
// seam pass, else the seam rows now and the rest in the next job.
func (s *Solver) halvesRows(ex Executor, t *stageTask, mode int) {
	j := &s.halves.job
	if j.ordered || halvesStageJobs {
		s.addHalfOp(halfOp{mode: mode})
		if halvesStageJobs {
			s.runHalves(ex)
		}
		return
	}
	s.takeSeamRows()
	t.mode, t.list = mode, s.halves.seamRows
	t.Run(0, len(t.list), 0)
	s.addHalfOp(halfOp{mode: mode, rest: true})
}

// halvesPass runs pass op over the group: the overflow and the seam on the
// caller, then the halves' part in the next job, or with op.reverse that
// part, then the seam and the overflow backwards. With op.bounces (the
// restitution) only the colours that restitute run, and the halves' part
// only if one does.
func (s *Solver) halvesPass(ex Executor, t *stageTask, op halfOp) {
	j := &s.halves.job
	if s.wide && len(s.kinRows) > 0 && (op.mode == modeSolve || op.mode == modeRelax) && j.kinAt != op.elapsed {
		if j.ordered {
			s.runHalves(ex)
		}
		s.setKinematic(op.elapsed)
		j.kinAt = op.elapsed
	}
	if !op.reverse {
		s.seamPass(ex, t, &op)
	}
	run := !op.bounces
	for k := 0; k < s.halves.colors && !run; k++ {
		run = s.restitutes(k)
	}
	if run {
		s.addHalfOp(op)
		if halvesStageJobs {
			s.runHalves(ex)
		}
	}
	if op.reverse {
		s.seamPass(ex, t, &op)
	}
}

// addHalfOp adds op to the halves' next job.
func (s *Solver) addHalfOp(op halfOp) {
	j := &s.halves.job
	if j.n == halvesMaxOps {
		panic("solver: a halves job of more stages than halvesMaxOps") // solveHalves never asks for more
	}
	if isPass(op.mode) {
		op.mode, j.wps[j.n] = s.wideStage(op.mode, op.flip)
	}
	j.ops[j.n] = op
	j.n++
	j.ordered = j.ordered || !op.rest
}

// isPass reports whether mode is a colour stage rather than an integration.
func isPass(mode int) bool {
	return mode != modeIntegrateVelocities && mode != modeIntegratePositions
}

// seamPass runs pass op over the overflow and the seam on the caller (the
// seam colour by colour across the workers, should a colour be large),
// after the halves' waiting job if it must come first.
func (s *Solver) seamPass(ex Executor, t *stageTask, op *halfOp) {
	if s.halves.job.ordered {
		s.runHalves(ex)
	}
	s.takeSeamRows()
	t.elapsed, t.flip = op.elapsed, op.flip
	if !op.reverse {
		t.mode = op.mode
		s.overflowStage(t)
	}
	t.mode, t.wp = s.wideStage(op.mode, op.flip)
	n := s.halves.colors
	s.colorPass(ex, t, int(t.g.colors[0])+2*n, n, op.reverse, op.bounces)
	if op.reverse {
		t.mode = op.mode
		s.overflowStage(t)
	}
}

// runHalves runs the halves' waiting job, if any: both halves side by
// side.
func (s *Solver) runHalves(ex Executor) {
	j := &s.halves.job
	if j.n == 0 {
		return
	}
	j.retake = j.taken
	ex.For(2, 1, &s.halves.task)
	j.n, j.ordered, j.taken = 0, false, false
}

// seamPrefetch turns takeSeamRows' prefetches on; tests and measurements
// turn them off.
var seamPrefetch = true

// takeSeamRows asks for the lines of the seam rows before the caller
// touches them for the first time since the last job, with 2 workers or
// more, and has the next job's halves ask for theirs back.
//
// The caller solves the seam and integrates its rows between the halves'
// jobs, and the rows of the second half are in the other core's cache
// each time. Each seam pass then waited for them a few at a time, inside
// the kernels: tumbler's seam (130-350 links) took 0.048 ms a step on 2
// workers against 0.023 on one. Write prefetches of all of them at once
// (internal/prefetch) let their transfers overlap.
func (s *Solver) takeSeamRows() {
	j := &s.halves.job
	if !j.multi || j.taken {
		return
	}
	j.taken = true
	prefetchRows(s.Bodies, s.halves.seamRows)
}

// prefetchRows asks for the lines of rows, to be written.
func prefetchRows(bodies []BodyState, rows []int32) {
	for _, r := range rows {
		prefetch.Write(unsafe.Pointer(&bodies[r]), unsafe.Sizeof(bodies[r]))
	}
}

// halvesTask runs the waiting job of the halves: items 0 and 1 are the
// halves.
type halvesTask struct {
	s *Solver
	t *stageTask
}

func (h *halvesTask) Run(lo, hi, _ int) {
	s := h.s
	j := &s.halves.job
	n := s.halves.colors
	for part := lo; part < hi; part++ {
		if j.retake {
			prefetchRows(s.Bodies, s.halves.seamOf[part])
		}
		c := &s.halves.ctx[part].t
		*c = *h.t
		c0 := int(c.g.colors[0]) + part*n
		for i := range j.ops[:j.n] {
			op := &j.ops[i]
			if !isPass(op.mode) {
				c.mode, c.list = op.mode, s.halfRows(part)
				if op.rest {
					c.list = s.restRows(part)
				}
				c.Run(0, len(c.list), 0)
				continue
			}
			c.mode, c.elapsed, c.flip, c.wp = op.mode, op.elapsed, op.flip, j.wps[i]
			s.colorPass(Serial{}, c, c0, n, op.reverse, op.bounces)
		}
	}
}
