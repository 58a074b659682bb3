package systems

import (
	"slices"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/ecs"
	"github.com/tumble2d/tumble/narrowphase"
	"github.com/tumble2d/tumble/solver"
)

// Sensors (components.Material.Sensor), as Box2D v3.1 has them: bodies
// that collide with nothing (touchable), and whose overlaps are found at
// the end of each step, when every body is where the step left it, by a
// pass over the sensors alone on the query index (query.go), which a
// game's queries in the same tick then reuse. The pass costs nothing in a
// world without sensors. It runs on the caller, in sensor order, so its
// lists are the same for any worker count.

// sensorOverlap is a sensor and a body whose shape overlaps its own.
type sensorOverlap struct{ sensor, visitor arche.Entity }

// sensors holds the overlaps of the last two ticks, each sorted
// (compareOverlaps), and this tick's moving rows that are sensors (the
// frozen ones are frozenRows.sensors).
type sensors struct {
	moving    []int32
	prev, cur []sensorOverlap
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
// began and ended in out. Call it once the step's rows are final (after
// stepped is set), so that the query index is this step's.
func (p *Physics) sense(out *ecs.SensorEvents) {
	sn := &p.sensor
	sn.prev, sn.cur = sn.cur, sn.prev[:0]
	out.Begin, out.End = out.Begin[:0], out.End[:0]
	if len(sn.moving)+len(p.frozen.sensors) > 0 {
		q := p.index()
		q.enter()
		for _, r := range sn.moving {
			p.senseRow(q, r)
		}
		for _, r := range p.frozen.sensors {
			p.senseRow(q, int32(len(p.proxies))+r)
		}
		q.leave()
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

// senseRow appends the overlaps of the sensor in step row r (a moving row,
// or len(p.proxies) plus a frozen row) to p.sensor.cur.
func (p *Physics) senseRow(q *queryIndex, r int32) {
	x := p.proxy(r)
	pose := x.xf
	if r < int32(len(p.proxies)) {
		pose = solver.FinalPose(&p.s.Sims[r], &p.s.Bodies[r], p.cfg.Dt)
	}
	if !pose.IsValid() {
		return
	}
	shape, mat, e := x.shapeOf(), p.material(r), p.entity(r)
	for _, pr := range q.candidates(widen(shape.AABB(pose))) {
		rows, k := q.row(pr.B)
		v := rows.src[k]
		if rows == &q.frz {
			v += int32(len(p.proxies))
		}
		if v == r || p.proxy(v).rules&ruleSensor != 0 || !mat.Filter.Collides(p.material(v).Filter) {
			continue
		}
		if d, _ := narrowphase.Distance(shape, pose, rows.shapes[k], rows.xfs[k]); d > 0 {
			continue
		}
		p.sensor.cur = append(p.sensor.cur, sensorOverlap{e, rows.ents[k]})
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
