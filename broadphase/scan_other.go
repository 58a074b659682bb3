//go:build !amd64 || purego

package broadphase

import "github.com/tumble2d/tumble/components"

// scanWide is false: this build has no assembly kernels (scan_amd64.go),
// and queries test one member at a time (members_aos.go).
const scanWide = false

// rowsWide is never called on this build.
func (cs *cellSet) rowsWide(c *class, st []int32, xlo, ylo, yhi int64, w uint64, a *components.AABB, A, minID, add int32, dst []Pair) []Pair {
	panic("broadphase: no assembly kernel on this build")
}

// scanKernel is never called on this build.
func (m *members) scanKernel(lo, hi int32, a *components.AABB, A, minID, add int32, dst []Pair) []Pair {
	panic("broadphase: no assembly kernel on this build")
}
