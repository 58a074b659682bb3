//go:build !amd64 || purego

package broadphase

import "github.com/tumble2d/tumble/components"

// scanWide is false: this build has no assembly (see scan_amd64.go).
const scanWide = false

// scanRangesAVX512 is never called on this build.
func scanRangesAVX512(m *memberPtrs, rg *[2]int32, nr int, a *components.AABB, base, minKey uint64, dst *Pair) int {
	panic("broadphase: no AVX-512 kernel on this build")
}
