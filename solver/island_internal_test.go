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

		adj := make([][]int32, n)
		join := func(a, b int32, ka, kb Kind) {
			if a >= 0 && b >= 0 && ka == KindDynamic && kb == KindDynamic {
				adj[a] = append(adj[a], b)
				adj[b] = append(adj[b], a)
			}
		}
		for _, l := range links {
			join(l.A, l.B, l.KindA, l.KindB)
		}
		for _, j := range joints {
			join(j.A, j.B, j.KindA, j.KindB)
		}
		comp := make([]int32, n)
		for i := range comp {
			comp[i] = -1
		}
		islands := int32(0)
		for i := range n {
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
