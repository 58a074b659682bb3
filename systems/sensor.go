package systems

import (
	"math"
	"slices"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/broadphase"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/narrowphase"
	"github.com/tumble2d/tumble/solver"
)

// Sensors (components.Material.Sensor), as Box2D v3.1 has them: bodies
// that collide with nothing (touchable), and whose overlaps are found at
// the end of each step, when every body is where the step left it, by a
// pass over the sensors alone. Each asks the step's broad-phase grid for
// the bodies whose boxes at the start of the step lie within reach of its
// final box (reach: the farthest a moving body's shape went from its start
// box), and tests their shapes at their final poses. Building the query
// index of ray queries (query.go) instead cost a world of 10 000 boxes with
// one sensor 0.5 ms a step. The pass costs nothing in a world without
// sensors. It runs on the caller, in sensor order, so its lists are the
// same for any worker count.

// sensorOverlap is a sensor and a body whose shape overlaps its own.
type sensorOverlap struct{ sensor, visitor arche.Entity }

// sensors holds the overlaps of the last two ticks, each sorted
// (compareOverlaps), and this tick's moving rows that are sensors (the
// frozen ones are frozenRows.sensors).
type sensors struct {
	moving    []int32
	prev, cur []sensorOverlap
	pairs     []broadphase.Pair // scratch: the candidates of one sensor
}

// compareEntities orders entities by ID, then generation.
func compareEntities(a, b arche.Entity) int {
	if a.ID() != b.ID() {
		return int(int64(a.ID()) - int64(b.ID()))
	}
	return int(int64(a.Generation()) - int64(b.Generation()))
}

func compareOverlaps(a, b sensorOverlap) int {
	if c := compareEntities(a.sensor, b.sensor); c != 0 {
		return c
	}
	return compareEntities(a.visitor, b.visitor)
}

// sense finds this tick's sensor overlaps and publishes the ones that
// began and ended in out, once the step's rows are final.
func (p *Physics) sense(out *ecs.SensorEvents) {
	sn := &p.sensor
	sn.prev, sn.cur = sn.cur, sn.prev[:0]
	out.Begin, out.End = out.Begin[:0], out.End[:0]
	if len(sn.moving)+len(p.frozen.sensors) > 0 {
		reach := p.sensorReach()
		for _, r := range sn.moving {
			p.senseRow(r, reach)
		}
		for _, r := range p.frozen.sensors {
			p.senseRow(int32(len(p.proxies))+r, reach)
		}
		slices.SortFunc(sn.cur, compareOverlaps)
	}
	// The two sorted lists, merged: what is only in this tick's began,
	// what is only in the last one's ended.
	i, j := 0, 0
	for i < len(sn.cur) || j < len(sn.prev) {
		c := 0
		switch {
		case i == len(sn.cur):
			c = 1
		case j == len(sn.prev):
			c = -1
		default:
			c = compareOverlaps(sn.cur[i], sn.prev[j])
		}
		switch {
		case c < 0:
			out.Begin = append(out.Begin, ecs.SensorEvent{Sensor: sn.cur[i].sensor, Visitor: sn.cur[i].visitor})
			i++
		case c > 0:
			out.End = append(out.End, ecs.SensorEvent{Sensor: sn.prev[j].sensor, Visitor: sn.prev[j].visitor})
			j++
		default:
			i, j = i+1, j+1
		}
	}
}

// finalPose returns the pose at which the step leaves row r (a moving row,
// or len(p.proxies) plus a frozen row).
func (p *Physics) finalPose(r int32) components.Transform {
	if r < int32(len(p.proxies)) {
		return solver.FinalPose(&p.s.Sims[r], &p.s.Bodies[r], p.cfg.Dt)
	}
	return p.proxy(r).xf
}

// sensorReach bounds how far outside its box at the start of the step
// (which the broad-phase grid holds) any moving body's shape ends the
// step: its centre's move plus its largest extent, which bounds the turn.
func (p *Physics) sensorReach() float64 {
	reach := 0.0
	for i := range p.proxies {
		sim := &p.s.Sims[i]
		// A pose the step could not make finite is not written (see
		// scatter): that body is left out, here and as a visitor.
		if d := p.finalPose(int32(i)).P.Sub(sim.X.P).Len() + sim.MaxExtent; d > reach && !math.IsInf(d, 1) {
			reach = d
		}
	}
	return reach
}

// senseRow appends the overlaps of the sensor in row r to p.sensor.cur,
// its candidates found in the broad-phase grid within reach of its box.
func (p *Physics) senseRow(r int32, reach float64) {
	pose := p.finalPose(r)
	if !pose.IsValid() {
		return
	}
	x := p.proxy(r)
	shape, mat, e := x.shapeOf(), p.material(r), p.entity(r)
	box := shape.AABB(pose)
	near := box.Expand(reach)
	sn := &p.sensor
	sn.pairs = p.grid.Overlaps(&near, sn.pairs[:0])
	for _, pr := range sn.pairs {
		v := pr.B
		if v == r || p.proxy(v).rules&ruleSensor != 0 || !mat.Filter.Collides(p.material(v).Filter) {
			continue
		}
		vpose := p.finalPose(v)
		vshape := p.proxy(v).shapeOf()
		if !vpose.IsValid() || !vshape.AABB(vpose).Overlaps(box) {
			continue
		}
		if d, _ := narrowphase.Distance(shape, pose, vshape, vpose); d > 0 {
			continue
		}
		sn.cur = append(sn.cur, sensorOverlap{e, p.entity(v)})
	}
}

// SensorOverlaps appends to dst the bodies that overlapped the sensor
// (components.Material.Sensor) in the last Update, sorted by entity ID
// (Box2D's b2Shape_GetSensorOverlaps), and returns it. A body that is not
// a sensor, or was not one then, overlaps nothing.
func (p *Physics) SensorOverlaps(sensor arche.Entity, dst []arche.Entity) []arche.Entity {
	cur := p.sensor.cur
	i, _ := slices.BinarySearchFunc(cur, sensor, func(o sensorOverlap, e arche.Entity) int { return compareEntities(o.sensor, e) })
	for ; i < len(cur) && cur[i].sensor == sensor; i++ {
		dst = append(dst, cur[i].visitor)
	}
	return dst
}
