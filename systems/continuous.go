package systems

import (
	"math"

	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/narrowphase"
	"github.com/tumble2d/tumble/solver"
)

// fastFraction: a dynamic body is fast, and swept, when it moved more in
// this step than this fraction of its smallest extent (the radius of a
// circle, the smaller half extent of a box). That is Box2D v3's safety
// factor (b2FinalizeBodies). Box2D applies it to a step of the final
// velocity; the displacement itself also catches a body that a contact
// slowed only once it was deep inside a wall. Slower bodies cannot cross a
// static body's face and come out the far side before their contacts see
// them.
const fastFraction = 0.5

// coreFraction is the radius, as a fraction of the smallest extent, of the
// circle round a fast body's centre that is swept in its place against a
// static body it already touches at the start of the step (Box2D v3's
// fallback in b2ContinuousQueryCallback): a box sliding fast along the
// ground still stops at a wall, while the ground it slides on does not stop
// it.
const coreFraction = 0.25

// sweepAll makes every fast body query the grid for the static bodies
// along its path, as before the broad phase marked the bodies near a frozen
// one; a test sets it to check that the shortcut changes nothing.
var sweepAll = false

// continuous sweeps the fast dynamic bodies against the static bodies along
// their path of this step, and moves each one that would hit back to its
// time of impact, keeping its velocity: the next step's contact stops it.
// Without it a body that crosses more than its own size in a step can pass
// through a thin wall, when the speculative contacts of the step fail to
// stop it (a glancing or spinning hit). Only static bodies are swept
// against, as in Box2D v3 without bullets. Each body is swept on its own.
//
// It runs on the caller. On circle_rain (2 500 fast bodies a step, most far
// from any static body) it took 0.11-0.12 ms a step when every fast body
// queried the grid; split between 2 workers at a 1 us core-to-core round
// trip it took longer than on the caller alone (0.17 against 0.14 ms, when
// it still read the BodySim rows). A body the broad phase found no frozen
// candidate for, and whose path stays inside its reach box, now needs no
// query (timeOfImpact): 0.08 ms a step (a timer round the sweep, three
// runs each way), most of it reading every body's state row. A circle's
// threshold kept in that row, so that the slow ones need not read their
// proxies, took it to 0.07 ms: not kept.
func (p *Physics) continuous() (swept, impacts int) {
	if p.frozen.statics == 0 {
		return 0, 0 // nothing to sweep against (tumbler's walls are kinematic)
	}
	for i := range p.proxies {
		x := &p.proxies[i]
		if x.kind != solver.KindDynamic {
			continue
		}
		st := &p.s.Bodies[i]
		minExt, turnSq := x.half.X, 0.0
		if x.shape == components.ShapeBox {
			// A turn by a moves a corner, at r_max = |half|, by the chord
			// r_max |DQ - 1| = 2 r_max sin(a/2): no trigonometry.
			minExt = min(x.half.X, x.half.Y)
			c, s := 1-st.DQ.C, st.DQ.S
			turnSq = x.half.LenSq() * (c*c + s*s)
		}
		// Fast when |DP| + chord > lim. The left side is at most
		// sqrt(2 (|DP|^2 + chord^2)), so most bodies are ruled out
		// without a root.
		lim := fastFraction * minExt
		moveSq := st.DP.LenSq()
		if 2*(moveSq+turnSq) <= lim*lim || math.Sqrt(moveSq)+math.Sqrt(turnSq) <= lim {
			continue
		}
		swept++
		if toi := p.timeOfImpact(i, minExt); toi < 1 {
			p.s.Sims[i].Rewind(st, toi)
			impacts++
		}
	}
	return swept, impacts
}

// timeOfImpact returns the earliest fraction of row i's motion this step at
// which it comes within the linear slop of a static body, or 1 if it hits
// none. minExt is its smallest extent.
func (p *Physics) timeOfImpact(i int, minExt float64) float64 {
	sim, st, x := &p.s.Sims[i], &p.s.Bodies[i], &p.proxies[i]
	target := narrowphase.LinearSlop
	// The shape stays inside the disc of radius r_max round its centre
	// whatever its turn, and the path of that disc inside the box of its
	// two ends.
	p1, p2 := sim.X.P, sim.X.P.Add(st.DP)
	r := components.V(sim.MaxExtent+target, sim.MaxExtent+target)
	box := components.AABB{Min: p1.Min(p2).Sub(r), Max: p1.Max(p2).Add(r)}
	if !sweepAll && p.nearFrozen[i>>6]&(1<<(i&63)) == 0 && p.reach[i].Contains(box.Min) && p.reach[i].Contains(box.Max) {
		// Every frozen box that meets the path's box meets the body's
		// reach, and the broad phase found none that does. On
		// circle_rain most fast bodies are drops in the air.
		p.sweepSkips++
		return 1
	}
	p.sweepPairs = p.grid.FrozenOverlaps(&box, 0, p.sweepPairs[:0])
	best := 1.0
	var sw narrowphase.Sweep
	var shape, core components.Shape
	for _, pr := range p.sweepPairs {
		f := &p.frozen.proxies[pr.B]
		if f.sleeping || p.joints.apart.has(x.id, f.id) || !p.mayTouch(int32(i), int32(len(p.ents))+pr.B) {
			continue
		}
		if shape.Kind == 0 {
			// First static candidate: a circle's turn moves none of its
			// outline, so its sweep need not turn.
			shape = x.shapeOf()
			sw = narrowphase.Sweep{P: p1, D: st.DP, R: sim.X.R}
			if shape.Kind == components.ShapeBox {
				sw.Angle = sim.Rotation(st).Angle()
			}
			core = components.Circle(coreFraction * minExt)
		}
		other := f.shapeOf()
		t, hit := narrowphase.TimeOfImpact(shape, &sw, other, f.xf, target)
		if hit && t == 0 {
			t, hit = narrowphase.TimeOfImpact(core, &sw, other, f.xf, target)
		}
		if hit && t > 0 && t < best {
			best = t
		}
	}
	return best
}
