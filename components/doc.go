// Package components holds the plain, pointer-free data that a game reads and
// writes: the math value types ([Vec2], [Rot], [Transform], [AABB]) and the
// body components stored in arche columns ([Velocity], [Shape], [Material],
// [Body], [Mass], [Force] and the [Sleeping] tag).
//
// # Overview
//
// Units are SI (metres, kilograms, seconds), y points up and angles are radians
// counter-clockwise. Rotations are stored as unit complex numbers ([Rot]) so
// that hot loops never call sin or cos.
//
// Methods here are trivial math only; behaviour lives in the solver and the
// systems. Every type is a value type without pointers, so arche columns of
// these types are not scanned by the garbage collector.
package components
