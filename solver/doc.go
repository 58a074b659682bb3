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
//     apart at no more than MaxPushOut m/s),
//  4. integrate positions (delta position and delta rotation),
//  5. relax: solve again without bias, so the push-out leaves no velocity.
//
// After the substeps, restitution is applied once from the normal velocity
// measured before the step, and the impulses are kept for warm starting the
// next step. Friction is Coulomb's, clamped by the normal impulse of the same
// point.
//
// # Data flow
//
// The caller (package systems) fills [Solver.Bodies], [Solver.Sims] and
// [Solver.Contacts] each tick, calls [Solver.Step], and reads back
// [BodyState] deltas and the contact impulses. Islands ([Islands]) are built
// from the touching contacts; islands with at least
// [Params.LargeIslandContacts] contacts are coloured so that every worker can
// share them, the rest are solved whole, one island per task.
//
// # Concurrency
//
// Parallel work goes through an [Executor] that the caller owns. Every task
// writes only the rows of its own island, or the rows of one colour (no two
// contacts of a colour share a dynamic body), so the results are bit-identical
// for any worker count.
package solver
