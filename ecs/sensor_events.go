package ecs

import arche "github.com/mlange-42/arche/ecs"

// SensorEvents is the world resource with the bodies that began or ended
// overlapping a sensor (components.Material.Sensor) in the last tick, as
// Box2D v3.1 reports them (b2World_GetSensorEvents). It is overwritten by
// every Update and valid until the next one; its slices are reused, so copy
// what must outlive the tick.
//
// A body overlaps a sensor when their shapes, as the step left them,
// overlap or touch. A body removed (or a sensor) ends its overlaps in the
// next tick, and the event names it: check it with [IsBody] before use.
// Overlaps are found at the end of each step: a body that passes right
// through a sensor within one step is not seen. Each list is sorted by
// sensor, then visitor (entity ID, then generation), the same for any
// worker count. Physics.Initialize starts the events over.
type SensorEvents struct {
	Begin []SensorEvent
	End   []SensorEvent
}

// SensorEvent names a sensor and a body (the visitor) that began or ended
// overlapping it.
type SensorEvent struct {
	Sensor, Visitor arche.Entity
}
