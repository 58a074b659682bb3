// Package solver integrates bodies and solves contact constraints on dense
// rows, without arche: body rows ([BodyState] hot, [BodySim] cold), contact
// constraints ([Contact]), islands (union-find) and graph colouring.
//
// # Overview
//
// The solver is the soft-step sequential-impulse solver of Box2D v3 (Erin
// Catto, "Solver2D" blog post, 2024, and box2d/src/contact_solver.c, solver.c):
// each step of dt is split into n substeps of h = dt/n, and each substep runs
//
//  1. integrate velocities (gravity, forces, damping),
//  2. warm start (apply the accumulated impulses),
//  3. solve with a soft bias (a spring-damper that pushes overlapping shapes
//     apart at no more than MaxPushOut m/s per contact; softer in islands
//     whose masses lie far apart, see [Params.HeavyMassRatio]),
//  4. integrate positions (delta position and delta rotation),
//  5. relax: solve again without bias, so the push-out leaves no velocity
//     in the two bodies of a contact (one sweep does not take it back
//     along a chain of contacts: see [Params.DeepOverlap]).
//
// After the substeps, restitution is applied once, reversing the normal
// velocity measured before the step or, for contacts with restitution, the
// one at which the gap closes ([Contact.AimRestitution]). The two points of
// a manifold that both bounce are solved together (a 2x2 complementarity
// problem), so a box that lands flat leaves without a spin; at e = 0 such a
// two-point impact is stopped together in the same way. An island whose
// bounces would end with more kinetic energy than it started the step with,
// plus the work of gravity and forces, has them scaled back (energy.go); so
// have the substeps of an island that would end with more than that, plus
// the energy its push-out may give (stepbound.go). The impulses are kept
// for warm starting the next step. Friction is Coulomb's, clamped by
// the normal impulse of the same point.
//
// # Data flow
//
// The caller (package systems) fills [Solver.Bodies], [Solver.Sims],
// [Solver.Links] and [Solver.Joints] each tick, calls [Solver.BuildIslands], stores each prepared
// contact with [Solver.SetContact], calls [Solver.Solve], and reads back the
// [BodyState] deltas and the contact impulses ([Solver.Impulses]). Islands ([Islands]) are built
// from the touching contacts; islands with at least
// [Params.LargeIslandContacts] contacts are coloured so that every worker can
// share them, the rest are solved whole, one island per task. Many large
// islands run in cache-sized groups, each group's whole step on one worker
// (group.go).
//
// # Wide contacts
//
// On x86-64 CPUs with AVX2, the coloured contacts are stored eight to a
// block, field by field, and the warm start, solve and relax stages run in
// assembly on one contact per float64 lane: eight lanes a pass with AVX-512
// (wide512_amd64.s), four with AVX2 (wide_amd64.s). The AVX-512 solve
// and relax run two blocks of a colour side by side, so that the CPU has
// two independent chains of rows in flight. Box2D v3 does the same
// with b2ContactConstraintSIMD. Each lane performs the scalar kernel's
// operations in the same order, so the results are those of the scalar path
// up to the sign of zeros. Contacts reach their lanes through
// [Solver.SetContact], and their impulses are read back with
// [Solver.Impulses]; without AVX2, or with the purego build tag, they go
// through Contacts and the scalar kernels.
//
// # Concurrency
//
// Parallel work goes through an [Executor] that the caller owns. Every task
// writes only the rows of its own island, or the rows of one colour (no two
// contacts of a colour share a dynamic body), so the results are bit-identical
// for any worker count.
package solver
