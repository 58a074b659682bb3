package ecs

import (
	"errors"
	"fmt"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
)

// ErrNotBody is returned (wrapped) for an entity that is not alive or carries
// no body.
var ErrNotBody = errors.New("not a live body")

// ErrWorldLocked is returned (wrapped) by [NewBody], [NewBodies] and
// [RemoveBody] while an arche query is open: arche forbids creating and
// removing entities and components then. Close the query first, or collect
// the work and do it after the loop.
var ErrWorldLocked = errors.New("the world is locked by an open query")

func errorf(format string, args ...any) error {
	return fmt.Errorf("tumble: "+format, args...)
}

func entityString(e arche.Entity) string {
	return fmt.Sprintf("entity %d.%d", e.ID(), e.Generation())
}

// body resolves e to its component pointers; the pointers are valid until the
// next structural change.
func body(w *arche.World, e arche.Entity) (*components.Transform, *components.Velocity,
	*components.Body, *components.Mass, *components.Force, error) {
	if !Alive(w, e) {
		return nil, nil, nil, nil, nil, fmt.Errorf("tumble: %s: %w (removed)", entityString(e), ErrNotBody)
	}
	sc := schemaOf(w)
	if c := sc.missing(w, e); c != "" {
		return nil, nil, nil, nil, nil, fmt.Errorf("tumble: %s: %w (no %s component)", entityString(e), ErrNotBody, c)
	}
	t, v, _, _, b, ms, f := sc.bodies.Get(e)
	return t, v, b, ms, f, nil
}

func checkVec(what string, v components.Vec2) error {
	if !v.IsFinite() {
		return errorf("%s %v is NaN or infinite", what, v)
	}
	return nil
}

func checkScalar(what string, x float64) error {
	if !components.IsFinite(x) {
		return errorf("%s %v is NaN or infinite", what, x)
	}
	return nil
}

// overflows returns an error, and the command changes nothing, when its
// result is beyond float64 (finite is false): 1e308 N applied twice, or at
// a lever arm.
func overflows(what string, finite bool) error {
	if !finite {
		return errorf("%s: the result is beyond float64 (NaN or infinite); nothing was changed", what)
	}
	return nil
}

// IsBody reports whether e is alive and carries the body components.
func IsBody(w *arche.World, e arche.Entity) bool {
	return Alive(w, e) && hasBody(w, e)
}

// Alive reports whether e is a live entity of w. Unlike arche's
// World.Alive, it reports false, rather than panicking with an index out of
// range, for an entity w never had: one of another world, or one made
// before a World.Reset. Every command checks its entity with it.
func Alive(w *arche.World, e arche.Entity) (alive bool) {
	defer func() {
		if recover() != nil {
			alive = false
		}
	}()
	return w.Alive(e)
}

// hasBody reports whether live entity e has all seven body components.
func hasBody(w *arche.World, e arche.Entity) bool {
	return schemaOf(w).missing(w, e) == ""
}

// MissingBodyComponent returns the name of the first of the seven body
// components (Transform, Velocity, Shape, Material, Body, Mass, Force) that
// entity e lacks, or "" if it has them all. [NewBody] adds them together
// and [RemoveBody] removes them together; a game that removes one itself
// leaves an entity the physics reports in [Report] and does not simulate.
// A removed entity (or the zero entity) has none of them, so it gives the
// first, "Transform".
func MissingBodyComponent(w *arche.World, e arche.Entity) string {
	sc := schemaOf(w)
	if !Alive(w, e) {
		return sc.body[0].name
	}
	return sc.missing(w, e)
}

// ApplyForce adds force f (N), applied at the world point p, to the force and
// torque accumulators of dynamic body e for the next tick, and wakes it. On
// a static or kinematic body it, like the other Apply commands, does nothing
// and returns nil, as in Box2D and Rapier: only dynamic bodies answer to
// forces and impulses.
func ApplyForce(w *arche.World, e arche.Entity, f, p components.Vec2) error {
	if err := errors.Join(checkVec("force", f), checkVec("point", p)); err != nil {
		return err
	}
	t, _, b, _, acc, err := body(w, e)
	if err != nil || b.Type != components.Dynamic {
		return err
	}
	nf, nt := acc.F.Add(f), acc.Torque+p.Sub(t.P).Cross(f)
	if err := overflows("force", nf.IsFinite() && components.IsFinite(nt)); err != nil {
		return err
	}
	acc.F, acc.Torque = nf, nt
	return Wake(w, e)
}

// ApplyForceToCenter adds force f (N) at the centre of mass of dynamic body e
// for the next tick, and wakes it.
func ApplyForceToCenter(w *arche.World, e arche.Entity, f components.Vec2) error {
	if err := checkVec("force", f); err != nil {
		return err
	}
	_, _, b, _, acc, err := body(w, e)
	if err != nil || b.Type != components.Dynamic {
		return err
	}
	nf := acc.F.Add(f)
	if err := overflows("force", nf.IsFinite()); err != nil {
		return err
	}
	acc.F = nf
	return Wake(w, e)
}

// ApplyTorque adds torque (N m) to dynamic body e for the next tick, and
// wakes it.
func ApplyTorque(w *arche.World, e arche.Entity, torque float64) error {
	if err := checkScalar("torque", torque); err != nil {
		return err
	}
	_, _, b, _, acc, err := body(w, e)
	if err != nil || b.Type != components.Dynamic {
		return err
	}
	nt := acc.Torque + torque
	if err := overflows("torque", components.IsFinite(nt)); err != nil {
		return err
	}
	acc.Torque = nt
	return Wake(w, e)
}

// ApplyLinearImpulse changes the velocity of dynamic body e at once by the
// impulse j (N s) applied at world point p, and wakes it.
func ApplyLinearImpulse(w *arche.World, e arche.Entity, j, p components.Vec2) error {
	if err := errors.Join(checkVec("impulse", j), checkVec("point", p)); err != nil {
		return err
	}
	t, v, b, m, _, err := body(w, e)
	if err != nil || b.Type != components.Dynamic {
		return err
	}
	lin, ang := v.Lin.MulAdd(m.InvMass, j), v.Ang+m.InvInertia*p.Sub(t.P).Cross(j)
	if err := overflows("impulse", lin.IsFinite() && components.IsFinite(ang)); err != nil {
		return err
	}
	v.Lin, v.Ang = lin, ang
	return Wake(w, e)
}

// ApplyAngularImpulse changes the angular velocity of dynamic body e at once
// by the angular impulse j (N m s), and wakes it.
func ApplyAngularImpulse(w *arche.World, e arche.Entity, j float64) error {
	if err := checkScalar("angular impulse", j); err != nil {
		return err
	}
	_, v, b, m, _, err := body(w, e)
	if err != nil || b.Type != components.Dynamic {
		return err
	}
	ang := v.Ang + m.InvInertia*j
	if err := overflows("angular impulse", components.IsFinite(ang)); err != nil {
		return err
	}
	v.Ang = ang
	return Wake(w, e)
}

// SetTransform teleports body e to position p and angle (radians), and wakes
// it. Writing the Transform component directly works too; this also checks
// the values and wakes a sleeping body at once.
func SetTransform(w *arche.World, e arche.Entity, p components.Vec2, angle float64) error {
	if err := errors.Join(checkVec("position", p), checkScalar("angle", angle)); err != nil {
		return err
	}
	t, _, _, _, _, err := body(w, e)
	if err != nil {
		return err
	}
	*t = components.Transform{P: p, R: components.NewRot(angle)}
	return Wake(w, e)
}

// SetVelocity sets the linear (m/s) and angular (rad/s) velocity of body e,
// and wakes it. Static bodies refuse a non-zero velocity.
func SetVelocity(w *arche.World, e arche.Entity, lin components.Vec2, ang float64) error {
	if err := errors.Join(checkVec("velocity", lin), checkScalar("angular velocity", ang)); err != nil {
		return err
	}
	_, v, b, _, _, err := body(w, e)
	if err != nil {
		return err
	}
	if b.Type == components.Static && (lin != components.Vec2{} || ang != 0) {
		return errorf("%s is static and cannot move", entityString(e))
	}
	*v = components.Velocity{Lin: lin, Ang: ang}
	return Wake(w, e)
}

// SetMass sets the mass (kg) and rotational inertia (kg m^2) of dynamic body
// e; both must be > 0 and finite.
func SetMass(w *arche.World, e arche.Entity, mass, inertia float64) error {
	if !usable(mass) || !usable(inertia) {
		return errorf("mass %v and inertia %v must be > 0, finite and invertible", mass, inertia)
	}
	_, _, b, m, _, err := body(w, e)
	if err != nil {
		return err
	}
	if b.Type != components.Dynamic {
		return errorf("%s is %v: only dynamic bodies have mass", entityString(e), b.Type)
	}
	*m = components.Mass{Mass: mass, Inertia: inertia, InvMass: 1 / mass, InvInertia: 1 / inertia}
	return Wake(w, e)
}

// Wake wakes body e if it sleeps. The rest of its sleeping island wakes on the
// next tick, when e touches it. Inside a game's open query, where arche
// forbids removing the Sleeping tag, e wakes at the start of the next
// physics Update instead (IsSleeping reports it asleep until then); so do
// the commands that wake the bodies they change.
func Wake(w *arche.World, e arche.Entity) error {
	if !IsBody(w, e) {
		return fmt.Errorf("tumble: %s: %w", entityString(e), ErrNotBody)
	}
	removeSleeping(w, e)
	return nil
}

// removeSleeping removes the Sleeping tag from e if it has it, or, while
// the world is locked, queues e for the physics to wake.
func removeSleeping(w *arche.World, e arche.Entity) {
	sc := schemaOf(w)
	if !w.Has(e, sc.sleeping[0]) {
		return
	}
	if w.IsLocked() {
		sc.pending = append(sc.pending, e)
		return
	}
	w.Remove(e, sc.sleeping...)
}

// schema is a world resource holding what the commands look up on every
// call, found once per world: the seven body components' IDs and names,
// their mask, a map of them, and the Sleeping tag's ID as the argument list
// of arche's World.Remove (a list built per call escapes to the heap). Seven
// component lookups per check doubled the cost of ApplyForceToCenter, from
// 250 to 450 ns. It also holds the bodies woken while a query held the
// world locked.
type schema struct {
	body     [7]bodyComponent
	bodyMask arche.Mask
	bodies   bodyMap
	sleeping []arche.ID
	pending  []arche.Entity
}

// bodyComponent is the ID and name of one body component.
type bodyComponent struct {
	id   arche.ID
	name string
}

// schemaOf returns w's schema resource, adding it on first use.
func schemaOf(w *arche.World) *schema {
	id := arche.ResourceID[schema](w)
	if r, ok := w.Resources().Get(id).(*schema); ok {
		return r
	}
	r := &schema{
		body: [7]bodyComponent{
			{arche.ComponentID[components.Transform](w), "Transform"},
			{arche.ComponentID[components.Velocity](w), "Velocity"},
			{arche.ComponentID[components.Shape](w), "Shape"},
			{arche.ComponentID[components.Material](w), "Material"},
			{arche.ComponentID[components.Body](w), "Body"},
			{arche.ComponentID[components.Mass](w), "Mass"},
			{arche.ComponentID[components.Force](w), "Force"},
		},
		bodies:   newBodyMap(w),
		sleeping: []arche.ID{arche.ComponentID[components.Sleeping](w)},
	}
	for _, c := range r.body {
		r.bodyMask.Set(c.id, true)
	}
	w.Resources().Add(id, r)
	return r
}

// missing returns the first body component that live entity e lacks, or "".
func (sc *schema) missing(w *arche.World, e arche.Entity) string {
	if m := w.Mask(e); m.Contains(&sc.bodyMask) {
		return ""
	}
	for _, c := range sc.body {
		if !w.Has(e, c.id) {
			return c.name
		}
	}
	return ""
}

// TakePendingWakes appends to dst the bodies that commands woke while an
// arche query held the world locked, forgets them, and returns dst. The
// physics system calls it at the start of each Update and wakes them. It is
// exported for package systems only: a game that calls it throws those
// wakes away, and the bodies stay asleep.
func TakePendingWakes(w *arche.World, dst []arche.Entity) []arche.Entity {
	sc := schemaOf(w)
	dst = append(dst, sc.pending...)
	sc.pending = sc.pending[:0]
	return dst
}

// IsSleeping reports whether body e is asleep.
func IsSleeping(w *arche.World, e arche.Entity) bool {
	if !Alive(w, e) {
		return false
	}
	sl := generic.NewMap[components.Sleeping](w)
	return sl.Has(e)
}

// RemoveBody removes the body components (and the Sleeping tag) from e,
// keeping the entity and the game's own components; of a body missing some
// of them, the ones left. To remove the entity
// itself, call arche's World.RemoveEntity; either way the physics forgets the
// body on the next tick.
func RemoveBody(w *arche.World, e arche.Entity) error {
	if !Alive(w, e) {
		return fmt.Errorf("tumble: %s: %w (removed)", entityString(e), ErrNotBody)
	}
	if w.IsLocked() {
		return fmt.Errorf("tumble: RemoveBody(%s): %w", entityString(e), ErrWorldLocked)
	}
	// Whatever is left of a body a game took apart goes too.
	var ids [7]arche.ID
	n := 0
	for _, c := range schemaOf(w).body {
		if w.Has(e, c.id) {
			ids[n] = c.id
			n++
		}
	}
	if n == 0 {
		return fmt.Errorf("tumble: %s: %w", entityString(e), ErrNotBody)
	}
	removeSleeping(w, e)
	w.Remove(e, ids[:n]...)
	return nil
}
