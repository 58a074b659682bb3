package solver

// IslandsBFS lets the external tests (package solver_test) use the island
// reference of island_internal_test.go.
var IslandsBFS = islandsBFS
