// Package narrowphase computes contact manifolds between pairs of shapes: the
// contact normal, up to two contact points, their signed separations and the
// feature ids the solver uses to warm start from tick to tick.
//
// # Overview
//
// [Collide] dispatches on the two [components.ShapeKind] values to one of
// three kernels:
//
//   - [CollideCircles]: centre-to-centre direction, one point.
//   - [CollideBoxCircle]: closest point on the box to the circle centre (or
//     the face of least penetration when the centre is inside), one point.
//   - [CollideBoxes]: separating-axis test over the four face normals,
//     reference/incident face selection with a hysteresis that keeps resting
//     stacks from flip-flopping, and Sutherland-Hodgman clipping of the
//     incident edge against the reference face's side planes, up to two
//     points. Separated pairs whose closest features are two corners get a
//     single corner-to-corner point, as in Box2D v3.
//
// The algorithms follow Box2D v3 (src/manifold.c: b2CollideCircles,
// b2CollidePolygonAndCircle, b2CollidePolygons, b2ClipPolygons) and Erin
// Catto's GDC talks "Contact Manifolds" (2007) and "Physics for Game
// Programmers: Understanding Constraints" (2014), specialised to the two shape
// kinds of Tumble.
//
// Every manifold is speculative: points whose separation is at most the
// caller's margin are kept even when the shapes do not yet touch (positive
// separation), so that the solver can stop a fast approach before it tunnels.
//
// For what the speculative contacts miss (a glancing or spinning hit at
// hundreds of m/s), [TimeOfImpact] finds the first fraction of a body's
// [Sweep] at which it comes within a target distance of a resting shape, by
// conservative advancement on the exact [Distance]. The engine sweeps its
// fast bodies against the static ones with it after each solve.
//
// # Data flow
//
// Input: two shapes, their world poses ([components.Transform]) and the
// speculative margin. Output: a [Manifold] by value, whose Normal points from
// shape A to shape B, whose points are world positions midway between the two
// surfaces and whose separations are negative when the shapes overlap. The
// broadphase produces candidate pairs, this package turns each into a
// manifold, and the solver matches the point IDs against the previous tick's
// manifold to reuse accumulated impulses.
//
// Box-box works in the reference box's local frame (the other box is brought
// in with one relative transform), which removes the world offset from the
// round-off and makes exactly aligned configurations, such as a box stacked
// flat on another, produce exact zero separations.
//
// # Concurrency
//
// Every function is pure: it reads only its arguments, writes only its return
// value and allocates nothing on the heap. They are safe to call from any
// number of goroutines at once.
package narrowphase
