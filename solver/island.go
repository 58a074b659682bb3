package solver

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

	parent []int32
	count  []int32 // scratch
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

// union joins the islands of rows a and b.
func (is *Islands) union(a, b int32) {
	ra, rb := is.find(a), is.find(b)
	// Union by smaller index keeps the root choice input-determined.
	if ra < rb {
		is.parent[rb] = ra
	} else if rb < ra {
		is.parent[ra] = rb
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
	for i := 0; i < n; i++ {
		if sims[i].Kind != KindDynamic {
			is.Of[i] = -1
			continue
		}
		r := is.find(int32(i))
		if r == int32(i) {
			is.Of[i] = islands
			islands++
		} else {
			is.Of[i] = is.Of[r]
		}
	}
	// Counting sort of bodies and contacts by island.
	is.count = resize(is.count, int(islands)+1)
	clear(is.count)
	for i := 0; i < n; i++ {
		if k := is.Of[i]; k >= 0 {
			is.count[k+1]++
		}
	}
	is.BodyStart = prefix(is.BodyStart, is.count)
	is.BodyList = resize(is.BodyList, int(is.BodyStart[islands]))
	copy(is.count, is.BodyStart)
	for i := 0; i < n; i++ {
		if k := is.Of[i]; k >= 0 {
			is.BodyList[is.count[k]] = int32(i)
			is.count[k]++
		}
	}
	clear(is.count)
	for li := range links {
		if k := is.linkIsland(&links[li]); k >= 0 {
			is.count[k+1]++
		}
	}
	is.ContactStart = prefix(is.ContactStart, is.count)
	is.ContactList = resize(is.ContactList, int(is.ContactStart[islands]))
	copy(is.count, is.ContactStart)
	for li := range links {
		if k := is.linkIsland(&links[li]); k >= 0 {
			is.ContactList[is.count[k]] = int32(li)
			is.count[k]++
		}
	}
	clear(is.count)
	for i := range joints {
		if k := is.jointIsland(&joints[i]); k >= 0 {
			is.count[k+1]++
		}
	}
	is.JointStart = prefix(is.JointStart, is.count)
	is.JointList = resize(is.JointList, int(is.JointStart[islands]))
	copy(is.count, is.JointStart)
	for i := range joints {
		if k := is.jointIsland(&joints[i]); k >= 0 {
			is.JointList[is.count[k]] = int32(i)
			is.count[k]++
		}
	}
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
