// Package systems is Tumble's physics pipeline on an arche world: the
// [Physics] system set, its stages and its worker pool. It is the only
// package that runs queries, and within a tick the only one that changes
// entity structure.
//
// # Overview
//
// A game creates a [Physics] with [New] and a [Config] (start from
// [DefaultConfig]), calls Initialize once on its world, Update once per fixed
// step, and Finalize at the end. These are the method set of arche-model's
// System. Bodies come from the ecs package (NewBody, NewBodies).
//
// # Data flow
//
// The arche components are the source of truth. Arche has no change
// detection, and games write Transform and Velocity between ticks, so each
// Update reads every body once into dense rows, works on the rows, and
// writes back once. The stages, in order, with their ecs.Stage names:
//
//  1. gather: apply the wakes requested last tick (islands touched by an
//     awake body) and wake everything if the gravity changed. Then read the
//     awake bodies into moving rows (solver.BodyState, solver.BodySim) and
//     the static and sleeping bodies into frozen rows. A body whose
//     components cannot be simulated is left out and listed in ecs.Report;
//     where its pose and shape are usable it stands meanwhile as a frozen
//     row, a static body to the others.
//     Then the joint entities (ecs.Joint) become solver joints on those
//     rows; a sleeper joined to an awake body is woken.
//  2. broadphase: the moving AABBs, grown by the speculative margin and
//     the distance each body can cover, go into the grid. The grid returns
//     the candidate pairs, sorted, in parallel blocks.
//  3. narrowphase: each pair gets its manifold, in parallel. Touching pairs
//     become solver links; pairs that touch a sleeping body become wake
//     requests for the next tick. If a body can go into a sleeper in this
//     tick (it appeared, was moved or was sped up next to it), the sleeper
//     wakes now and the tick goes back to the gather (ecs.Profile.Rewakes).
//  4. islands: union-find over the links and the joints. Islands with
//     joints or with fewer than Config.LargeIslandContacts contacts are
//     solved whole, the rest are graph-coloured; the contacts are laid out in that solver order.
//  5. solve: prepare the contacts in parallel (materials, softness, warm
//     start from last tick's impulses by entity pair and feature id, or
//     from those an island woken this tick had when it fell asleep), then
//     run the soft-step substeps and restitution, and keep the impulses.
//     Then sweep the fast bodies against the static ones along their path,
//     and put each back where it would first touch one (continuous
//     collision; ecs.Profile counts them).
//  6. sleep: advance the rest timers. Islands at rest fall asleep, keeping
//     their contacts' impulses. A body the solve sped up requests a wake of
//     the sleepers it can reach next tick.
//  7. scatter: write the poses and velocities back, clear the forces, and
//     tag the sleeping bodies.
//  8. events: publish ecs.ContactEvents (the contacts that began, ended
//     or hit above Config.HitSpeed; the preparation and the store mark
//     them in parallel as they look up and keep the impulses),
//     ecs.SensorEvents (the bodies that began or ended overlapping a
//     sensor, found on the step's final poses), ecs.Profile (time per
//     stage, counters) and ecs.Report.
//
// # Queries
//
// Between Updates, [Physics.CastRay] and [Physics.OverlapAABB] answer ray
// and region queries about the bodies as the last Update left them.
//
// # Concurrency
//
// Only the goroutine that calls Update touches the arche world. Workers,
// long-lived goroutines started by Initialize, see plain slices. Each writes
// only its own rows: one island, one slice of a colour, one block of pairs.
// Anything shared is folded serially in a fixed order afterwards, so the
// results are bit-identical for any Config.Workers. The workers carry the
// pprof label "stage".
package systems
