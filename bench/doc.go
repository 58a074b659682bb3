// Package bench holds Tumble's canonical scenes (/work/shared/scenes.md):
// one definition of each scene serves the tests, the Go benchmarks
// (BenchmarkScene/<name>/workers=<n>) and the cmd/stress tool, so their
// numbers, health checks and checksums agree.
//
// # Overview
//
// A [Scene] is a stateless recipe: its name, default step count, whether
// sleep is on, its gravity, and a builder. [Scene.Build] creates the bodies in
// a world, in the order scenes.md lists them, and returns a [Built]: the
// entities in creation order, the scene's per-tick hook ([Built.PreStep]: the
// tumbler drives its kinematic walls, falling_bricks turns the gravity,
// cool_demo removes fallen bodies) and its health check ([Built.Health]).
// [Scenes] lists all eight scenes in the order of scenes.md, [Lookup] finds
// one by name.
//
// [Sim] bundles a world, a [systems.Physics] and a built scene, and steps
// them; [Run] builds a Sim, runs warm-up and timed steps and returns a
// [Result] with per-step wall times, per-stage times from the ecs.Profile
// resource, allocation and GC counts, the health check and a [Checksum] of the
// final transforms. [RunSideBySide] runs several such simulations (say, one
// per worker count) in one process, each in turn for a number of ticks, so
// that a change in the host's load falls on all of them alike.
//
// # Scale
//
// A scale factor F (cmd/stress -scale) changes the scalable scenes only
// ([Scene.Scalable]): circle_rain and mixed_pile spawn round(10 000 F) bodies
// in a box widened by sqrt(F) (walls centred at x = +-50.5 sqrt(F), floor
// half width 51 sqrt(F), wall height 120 sqrt(F) but never below the top of
// the spawn grid plus 5 m), on a grid of round(92 sqrt(F)) columns (fewer if
// they would not fit between the walls); cool_demo spawns round(10 F) random
// boxes and as many circles. At F = 1 every scene is exactly the one in
// scenes.md. The other scenes ignore F.
//
// # Choices scenes.md leaves open
//
//   - smash: columns are the outer loop, as in Box2D's CreateSmash.
//   - tumbler: walls in the order (+10, 10), (-10, 10), (0, 20), (0, 0). Each
//     tick a wall gets angular velocity omega and the linear velocity that
//     carries its centre to its exact place on the circle at the end of the
//     tick (the chord): omega x (p - c) to first order, without the outward
//     drift (2 % of the radius over 750 ticks) of the pure tangent.
//   - falling_bricks: walls bottom, top, left, right (bottom and top span the
//     corners), then the six bricks at y = 2 m, x = -4 + 1.6k; walls and
//     bricks have friction 0.5 and restitution 0.2. Gravity turns clockwise:
//     down, left, up, right, down, ... The health check records before each
//     turn (and at the end of a run that stops on a multiple of 150 ticks)
//     whether all six bricks are asleep.
//   - cool_demo: boxes and circles interleaved; per body the draws are x, y,
//     size (width and height, or radius), mass, friction, restitution, vx, vy;
//     mass is uniform in [1, 30) kg (the book's 0 would mean static).
//   - Health tolerances: open box and falling_bricks 0.1 m on the body
//     centre; tumbler centres within 9.5 - h + h sqrt(2) of the drum axis
//     lines, in the drum frame (h the box half extent).
//
// # Data flow
//
// Building writes bodies with [ecs.NewBodies] (batches) and nothing else; the
// hooks write Velocity components, the Gravity resource (with
// [ecs.SetGravity]) or remove entities, always between ticks, never while a
// query is open. Health checks and checksums only read.
//
// # Concurrency
//
// None of this is safe for concurrent use: a Sim owns its world. Separate
// Sims may run on separate goroutines.
package bench
