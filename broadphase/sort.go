package broadphase

import (
	"cmp"
	"slices"
)

// insertionMax is the segment length up to which insertion sort is used: a
// box usually has a handful of candidates, where insertion sort beats any
// general sort; a ground with hundreds goes to pdqsort.
const insertionMax = 24

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
	} else {
		slices.SortFunc(s, func(x, y Pair) int { return cmp.Compare(x.B, y.B) })
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
