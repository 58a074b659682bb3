// Package ecs is Tumble's arche schema: body definitions and their
// validation, spawning bodies one at a time or in batches, the commands a game
// calls between ticks (forces, impulses, teleports, wake, removal) and the
// world resources the physics reads and publishes ([Gravity],
// [ContactEvents], [SensorEvents], [JointEvents], [Profile], [Report]).
//
// # Import names
//
// This package shares its name with arche's ecs package. Tumble imports arche
// as
//
//	arche "github.com/mlange-42/arche/ecs"
//
// everywhere, in code and docs, and this package under its own name, ecs.
//
// # Overview
//
// A body is an arche entity with seven components from package components:
// Transform, Velocity, Shape, Material, Body, Mass and Force, plus the
// Sleeping tag while it sleeps. Games create bodies with [NewBody] or
// [NewBodies] from a [BodyDef]; a definition is validated first and a bad one
// is refused with a [*DefError] naming the field, leaving the world unchanged.
//
// # Data flow
//
// Games may read and write Transform, Velocity and Force between ticks; the
// physics system reads every component once per tick. None of the functions
// here may run while the physics step runs. Inside a game's own open query,
// where arche forbids structural changes, the commands still work: a
// sleeping body they wake wakes at the start of the next Update (see
// [Wake]); creating and removing bodies returns [ErrWorldLocked].
//
// # Concurrency
//
// None of this is safe for concurrent use: arche worlds are single-owner.
package ecs
