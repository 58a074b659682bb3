//go:build amd64 && !purego

package broadphase

import (
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/internal/cpu"
)

// scanWide reports whether scan runs scanRangesAVX512 (see cpu.AVX512).
var scanWide = cpu.AVX512

// scanRangesAVX512 tests the members of the nr ranges at rg (first member,
// end) of the arrays at m against the query box a, eight at a time, and
// stores at dst the key+base of each one that overlaps a and whose key is
// at least minKey, in range and member order; it returns how many it kept.
// It stores whole registers: dst must have room for the kept pairs plus 8.
// The tests are scanGo's, with the same outcome for every member (ordered
// comparisons, false on NaN, as Go's <=).
//
//go:noescape
func scanRangesAVX512(m *memberPtrs, rg *[2]int32, nr int, a *components.AABB, base, minKey uint64, dst *Pair) int
