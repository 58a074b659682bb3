package solver

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestIslandsWithJoints checks the island build with joints against a
// breadth-first search on random graphs: joints between two dynamic rows
// join islands as contacts do, and every joint with a dynamic side is listed,
// once, in the island of that side, in ascending order; a joint anchored to
// a static side (row -1) or between kinematic rows joins nothing.
func TestIslandsWithJoints(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var is Islands
	for trial := 0; trial < 100; trial++ {
		n := 1 + rng.IntN(50)
		sims := make([]BodySim, n)
		for i := range sims {
			sims[i].Kind = KindDynamic
			if rng.IntN(5) == 0 {
				sims[i].Kind = KindKinematic
			}
		}
		side := func() (int32, Kind) {
			if rng.IntN(6) == 0 {
				return -1, KindStatic
			}
			r := int32(rng.IntN(n))
			return r, sims[r].Kind
		}
		var links []Link
		for range rng.IntN(n) {
			a, ka := side()
			b, kb := side()
			links = append(links, Link{A: a, B: b, KindA: ka, KindB: kb})
		}
		var joints []Joint
		for range rng.IntN(n) {
			var j Joint
			j.A, j.KindA = side()
			j.B, j.KindB = side()
			joints = append(joints, j)
		}
		is.build(sims, links, joints)

		joins := slices.Clone(links)
		for _, j := range joints {
			joins = append(joins, Link{A: j.A, B: j.B, KindA: j.KindA, KindB: j.KindB})
		}
		comp, islands := islandsBFS(sims, joins)
		if !slices.Equal(is.Of, comp) || is.Len() != int(islands) {
			t.Fatalf("trial %d: Of = %v (%d islands), want %v (%d)", trial, is.Of, is.Len(), comp, islands)
		}
		want := make([][]int32, islands)
		for k, j := range joints {
			switch {
			case j.A >= 0 && j.KindA == KindDynamic:
				want[comp[j.A]] = append(want[comp[j.A]], int32(k))
			case j.B >= 0 && j.KindB == KindDynamic:
				want[comp[j.B]] = append(want[comp[j.B]], int32(k))
			}
		}
		for k := range islands {
			if got := is.Joints(int(k)); !slices.Equal(got, want[k]) {
				t.Fatalf("trial %d: island %d joints %v, want %v", trial, k, got, want[k])
			}
		}
	}
}

// islandsBFS is the tests' reference for the island build: a breadth-first
// search over the rows of sims joined by every link whose sides are both
// dynamic rows. comp[i] is the island of row i, numbered by lowest row as
// Islands numbers them, or -1 for a row that is not dynamic; islands is
// their number. TestIslandsRandomGraph calls it as IslandsBFS.
func islandsBFS(sims []BodySim, links []Link) (comp []int32, islands int32) {
	adj := make([][]int32, len(sims))
	for _, l := range links {
		if l.A >= 0 && l.B >= 0 && l.KindA == KindDynamic && l.KindB == KindDynamic {
			adj[l.A] = append(adj[l.A], l.B)
			adj[l.B] = append(adj[l.B], l.A)
		}
	}
	comp = make([]int32, len(sims))
	for i := range comp {
		comp[i] = -1
	}
	for i := range sims {
		if sims[i].Kind != KindDynamic || comp[i] >= 0 {
			continue
		}
		comp[i] = islands
		for queue := []int32{int32(i)}; len(queue) > 0; queue = queue[1:] {
			for _, v := range adj[queue[0]] {
				if comp[v] < 0 {
					comp[v] = islands
					queue = append(queue, v)
				}
			}
		}
		islands++
	}
	return comp, islands
}
