package ecs

import (
	arche "github.com/mlange-42/arche/ecs"
	"github.com/tumble2d/tumble/components"
)

// ContactEvents is the world resource with the contacts that began, ended
// or struck hard in the last tick, as Box2D v3 reports them
// (b2World_GetContactEvents). It is overwritten by every Update and valid
// until the next one; its slices are reused, so copy what must outlive
// the tick.
//
// A contact is a pair of bodies whose manifold has a point within the
// speculative distance (Config.SpeculativeDistance), or whose gap closes
// within the tick at their approach speed along its normal, or one of
// whose points pushed in the tick's solve; A is the body with the smaller
// entity ID. Like Box2D's, it can begin up to the speculative distance
// before the two surfaces meet (a tick before, for bodies closing fast),
// and it ends at the first tick it is none of these: bodies moving apart
// beyond the speculative distance end it, though the solver keeps their
// speculative points while they could still meet in a tick, and bodies that
// move apart from the start never begin one. A contact that a sleeping island
// keeps neither ends when the island falls asleep nor begins again when it
// wakes. A body removed (by RemoveBody or with its entity) ends its
// contacts in the next tick, and the event names it: check it with
// [IsBody] before use. So does a body the tick leaves out for a bad pose or
// shape ([Report]); it begins them again once mended. One left out for
// another bad value stands as a static body meanwhile ([BodyError]): it
// keeps its contacts with moving bodies, and ends those with static
// bodies, resting kinematic bodies and other left-out ones (such bodies
// do not meet each other), which begin again once it is mended.
//
// Each list is in the same order for any worker count. Physics.Initialize
// starts the events over: the contacts that touch then begin again.
type ContactEvents struct {
	Begin []ContactBegin
	End   []ContactEnd
	Hit   []ContactHit
}

// ContactBegin is a contact that began touching this tick, with the
// manifold it began with. Normal points from A to B, and Points[:Count]
// are the world contact points, midway between the two surfaces.
type ContactBegin struct {
	A, B   arche.Entity
	Normal components.Vec2
	Points [2]components.Vec2
	Count  int
}

// ContactEnd is a contact that touched in the last tick and no longer
// does.
type ContactEnd struct {
	A, B arche.Entity
}

// JointEvents is the world resource with the joints whose force or torque
// exceeded their ForceThreshold or TorqueThreshold in the last tick, in
// the same order for any worker count; overwritten by every Update. The
// joints of sleeping islands are not solved, and not reported.
type JointEvents struct {
	Exceeded []JointExceeded
}

// JointExceeded is a joint over its threshold: the size of the force (N)
// and torque (N m) it applied to its body B in the tick's last substep.
type JointExceeded struct {
	Joint         arche.Entity
	Force, Torque float64
}

// ContactHit is a contact point that approached faster than
// Config.HitSpeed and pushed in this tick's solve: Speed is its approach
// speed along Normal (from A to B) at the start of the tick, or, for a
// contact with restitution whose gap closes within the tick, when it
// closes under the gravity and forces the two bodies feel (exact against
// a static or kinematic body; against a body held up by others, the speed
// at the start of the tick, up to g dt lower). Point is the manifold's world point of the start of the tick,
// midway between the two surfaces: where the gap closed within the tick,
// up to half that gap from where they met, as in Box2D. Of a contact's
// two points, the one that approached faster is reported. A speculative
// point that never closed pushes nothing and is not a hit.
type ContactHit struct {
	A, B   arche.Entity
	Point  components.Vec2
	Normal components.Vec2
	Speed  float64
}
