package solver

import "math"

// Islands partitions the awake dynamic bodies into islands: sets joined by
// touching contacts (static and kinematic bodies never join an island, so two
// boxes resting on the same ground are two islands). Islands decide sleep and
// are the solver's unit of batching.
//
// Island k has the bodies BodyList[BodyStart[k]:BodyStart[k+1]] and the
// links ContactList[ContactStart[k]:ContactStart[k+1]] (indices into the
// links given to Build), both in ascending order; joints join islands as
// contacts do, and island k has the joints JointList[JointStart[k]:JointStart[k+1]]. Islands are numbered in the order of their lowest
// body row, so the numbering depends only on the inputs.
type Islands struct {
	BodyStart    []int32
	BodyList     []int32
	ContactStart []int32
	ContactList  []int32
	JointStart   []int32
	JointList    []int32
	// Of maps a body row to its island, or -1 for non-dynamic rows.
	Of []int32

	// invMassLo and invMassHi are the least and greatest positive inverse
	// mass of the dynamic rows, or +Inf and 0 if none has one.
	invMassLo, invMassHi float64

	parent []int32
	count  []int32 // scratch
	linkOf []int32 // scratch: the island of each link, then of each joint
}

// Len returns the number of islands.
func (is *Islands) Len() int { return len(is.BodyStart) - 1 }

// Bodies returns the body rows of island k.
func (is *Islands) Bodies(k int) []int32 { return is.BodyList[is.BodyStart[k]:is.BodyStart[k+1]] }

// Contacts returns the link indices of island k.
func (is *Islands) Contacts(k int) []int32 {
	return is.ContactList[is.ContactStart[k]:is.ContactStart[k+1]]
}

// Joints returns the joint indices of island k.
func (is *Islands) Joints(k int) []int32 { return is.JointList[is.JointStart[k]:is.JointStart[k+1]] }

func (is *Islands) find(i int32) int32 {
	p := is.parent
	for p[i] != i {
		p[i] = p[p[i]] // path halving
		i = p[i]
	}
	return i
}

// Build computes the islands of the dynamic rows of sims joined by the
// links. It reuses its buffers: no allocation once warm. Cost: O(bodies +
// links), near-linear union-find.
func (is *Islands) Build(sims []BodySim, links []Link) { is.build(sims, links, nil) }

// union joins the islands of rows a and b. It climbs both paths together,
// always from the node whose parent is higher, halving the path as it goes,
// until the two meet (one set already) or the higher one is a root, which
// it links below the other's parent: Rem's algorithm with path halving, one
// of the fastest in Patwary, Blair and Manne ("Experiments on union-find
// algorithms for the disjoint-set data structure", SEA 2010). A parent is
// never above its child, so a root is its set's lowest row, which is all
// numbering needs; the sets are those of any union order. Against find,
// find and link, BenchmarkIslands went from 41 to 26 us with its rows in
// order and from 41 to 35 with them shuffled (benchstat, n = 6).
func (is *Islands) union(a, b int32) {
	p := is.parent
	for {
		pa, pb := p[a], p[b]
		if pa == pb {
			return
		}
		if pa < pb {
			if b == pb {
				p[b] = pa
				return
			}
			p[b] = p[pb]
			b = pb
		} else {
			if a == pa {
				p[a] = pb
				return
			}
			p[a] = p[pa]
			a = pa
		}
	}
}

// build is Build with joints joining islands too.
func (is *Islands) build(sims []BodySim, links []Link, joints []Joint) {
	n := len(sims)
	is.parent = resize(is.parent, n)
	for i := range is.parent {
		is.parent[i] = int32(i)
	}
	for li := range links {
		if c := &links[li]; c.KindA == KindDynamic && c.KindB == KindDynamic {
			is.union(c.A, c.B)
		}
	}
	for i := range joints {
		if j := &joints[i]; j.A >= 0 && j.B >= 0 && j.KindA == KindDynamic && j.KindB == KindDynamic {
			is.union(j.A, j.B)
		}
	}
	// Number islands by their lowest row; roots are always the lowest row.
	is.Of = resize(is.Of, n)
	islands := int32(0)
	lo, hi := math.Inf(1), 0.0
	for i := 0; i < n; i++ {
		if sims[i].Kind != KindDynamic {
			is.Of[i] = -1
			continue
		}
		if m := sims[i].InvMass; m > 0 {
			lo, hi = min(lo, m), max(hi, m)
		}
		r := is.find(int32(i))
		if r == int32(i) {
			is.Of[i] = islands
			islands++
		} else {
			is.Of[i] = is.Of[r]
		}
	}
	is.invMassLo, is.invMassHi = lo, hi
	// Counting sorts of bodies, contacts and joints by island. The island
	// of each link is found once, into linkOf, for both passes.
	is.count = resize(is.count, int(islands)+1)
	is.BodyStart, is.BodyList = is.countingSort(is.Of, is.BodyStart, is.BodyList)
	is.linkOf = resize(is.linkOf, len(links))
	for li := range links {
		is.linkOf[li] = is.linkIsland(&links[li])
	}
	is.ContactStart, is.ContactList = is.countingSort(is.linkOf, is.ContactStart, is.ContactList)
	is.linkOf = resize(is.linkOf, len(joints))
	for i := range joints {
		is.linkOf[i] = is.jointIsland(&joints[i])
	}
	is.JointStart, is.JointList = is.countingSort(is.linkOf, is.JointStart, is.JointList)
}

// countingSort lists the indices i of keys (island numbers, -1 for none) by
// island, ascending within each: island k gets list[start[k]:start[k+1]].
// Both passes keep the current island's count in a register while the
// keys repeat: one island holds most of a pile's links, and incrementing
// its counter in memory chained every link to the store before it: on
// BenchmarkIslands' wall of 2 025 boxes the build went from 51 to 41 us.
func (is *Islands) countingSort(keys []int32, start, list []int32) ([]int32, []int32) {
	count := is.count
	clear(count)
	run, cur := int32(0), int32(-1)
	for _, k := range keys {
		if k != cur {
			if cur >= 0 {
				count[cur+1] += run
			}
			cur, run = k, 0
		}
		run++
	}
	if cur >= 0 {
		count[cur+1] += run
	}
	start = prefix(start, count)
	list = resize(list, int(start[len(start)-1]))
	copy(count, start)
	cur, pos := int32(-1), int32(0)
	for i, k := range keys {
		if k < 0 {
			continue
		}
		if k != cur {
			if cur >= 0 {
				count[cur] = pos
			}
			cur, pos = k, count[k]
		}
		list[pos] = int32(i)
		pos++
	}
	return start, list
}

// jointIsland returns the island of the dynamic side of j, or -1 if it has
// none.
func (is *Islands) jointIsland(j *Joint) int32 {
	if j.A >= 0 && j.KindA == KindDynamic {
		return is.Of[j.A]
	}
	if j.B >= 0 && j.KindB == KindDynamic {
		return is.Of[j.B]
	}
	return -1
}

// linkIsland returns the island of the dynamic side of c, or -1 if neither
// side is dynamic (kinematic against static: nothing to solve).
func (is *Islands) linkIsland(c *Link) int32 {
	if c.KindA == KindDynamic {
		return is.Of[c.A]
	}
	if c.KindB == KindDynamic {
		return is.Of[c.B]
	}
	return -1
}

// prefix writes the running sum of counts (whose first entry is 0) into dst.
func prefix(dst, counts []int32) []int32 {
	dst = resize(dst, len(counts))
	sum := int32(0)
	for i, c := range counts {
		sum += c
		dst[i] = sum
	}
	return dst
}

// resize returns s with length n, reallocated at twice that when too small
// (see systems.resize for why twice).
func resize[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n, 2*n)
	}
	return s[:n]
}
