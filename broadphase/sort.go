package broadphase

import (
	"cmp"
	"slices"
	"unsafe"
)

// insertionMax is the segment length up to which insertion sort is used: a
// box usually has a handful of candidates, where insertion sort beats any
// general sort; a ground with hundreds goes to pdqsort.
const insertionMax = 24

// sortDedupFrom applies sortDedup to the pairs of dst from start on (the
// candidates of one query) and returns dst shortened to match.
func sortDedupFrom(dst []Pair, start int) []Pair {
	return dst[:start+len(sortDedup(dst[start:]))]
}

// sortDedup sorts s, whose elements share A, by B and removes repeated Bs,
// returning the shortened slice (a prefix of s).
func sortDedup(s []Pair) []Pair {
	if len(s) < 2 {
		return s
	}
	if len(s) <= insertionMax {
		for i := 1; i < len(s); i++ {
			p := s[i]
			j := i
			for j > 0 && s[j-1].B > p.B {
				s[j] = s[j-1]
				j--
			}
			s[j] = p
		}
	} else if uintptr(unsafe.Pointer(&s[0]))%8 != 0 {
		slices.SortFunc(s, func(x, y Pair) int { return cmp.Compare(x.B, y.B) })
	} else {
		// All elements share A, so ordering the 8-byte pairs as unsigned
		// integers orders them by B on either byte order (B is the high
		// half, or A is and ties), since B >= 0; a buffer allocated as
		// []Pair is 8-byte aligned (a caller's odd buffer takes the branch
		// above). The ordered-type sort needs no comparison callback: 7.8
		// against 25 us for 1000 hits, the size of a large rotated wall's
		// query (tumbler).
		slices.Sort(unsafe.Slice((*uint64)(unsafe.Pointer(&s[0])), len(s)))
	}
	k := 1
	for i := 1; i < len(s); i++ {
		if s[i].B != s[k-1].B {
			s[k] = s[i]
			k++
		}
	}
	return s[:k]
}
