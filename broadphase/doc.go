// Package broadphase finds the candidate pairs of a physics tick: every pair
// of axis-aligned bounding boxes that overlap (touching counts), between two
// moving boxes or a moving and a frozen box, exactly as a brute-force
// all-pairs components.AABB.Overlaps test would, in sorted order.
//
// # Overview
//
// Grid is a uniform grid with hashed cells, so the world is unbounded:
// negative, huge (1e6 m and beyond) and infinite coordinates all work. Each
// box is stored once, in the cell of its lower-left corner. A query from box
// a then only needs the cells from a.Min minus the largest member extent up
// to a.Max (derived in query.go), so no box is met twice and no per-cell
// dedup is needed.
//
// Boxes much larger than the base cell would widen that reach for everyone,
// so each set is a hierarchy: a box goes to width level lx and height level
// ly, the lowest whose cell sides base*4^lx and base*4^ly hold its width and
// height, and each (lx, ly) class is a separate hashed grid with its own
// reach. A 220 m x 0.1 m ground thus lives in 512 m x 2 m cells: a small
// box's query sees one or two of them, and the ground's own query (when it
// moves) scans one or two rows of small cells, each a contiguous range of
// the bucket array. Levels per axis, rather than one level from the larger
// side, keep stacked long grounds in separate cells (BenchmarkManyPyramids);
// without levels one moving ground makes every query scan ~100 cells
// (BenchmarkMovingGround). A class of few members is simply scanned whole.
//
// The base cell side is fixed by NewGrid or, by default, 2 times the
// median box extent, 2.5 with the kernels below (see autoFactor); it only
// changes speed, never the result.
//
// On x86-64 a set keeps its members in bucket order as one array per field
// (struct of arrays, members_soa.go), and a query tests eight members per
// instruction with AVX-512 or four with AVX2 (scan_amd64.s), the rows of a
// class gathered into one call. Without a kernel a query tests one member
// at a time, branch-free, and skips the members below its index bucket by
// bucket (scanTails): on other architectures and with -tags purego, whose
// builds keep each member whole (members_aos.go), and on an x86-64 CPU
// without AVX2, over the same arrays. Every path gives the same pairs
// (TestScanKernelMatchesGo, and the brute-force tests run on each path).
//
// # Data flow
//
// SetFrozen copies the static and sleeping boxes and builds their
// structure; Update builds the moving structure every tick, a counting sort
// of the boxes into the buckets of their class (O(n), no comparisons). In
// automatic mode Update also rebuilds the frozen structure when the moving
// base cell has drifted more than 2x from the one it was built with.
// PairsRange then walks moving boxes A in index order; for each it queries
// every moving class (keeping B > A) and every frozen class (B offset by
// NumMoving), appends the hits to dst, and sorts and dedups that short
// segment in place (hash collisions between rows can repeat a box). Output
// is thus ordered by A by construction and by B by the sort.
//
// # Concurrency
//
// Update and SetFrozen write the grid and must not overlap any other call.
// Between them PairsRange only reads the grid (the per-A scratch space is the
// caller's dst), so several goroutines may call it at once on disjoint
// ranges, each with its own dst; concatenating their results in range order
// gives the same list as one call over everything. Once the buffers have
// grown to the scene's size nothing allocates, dst included if reused.
package broadphase
