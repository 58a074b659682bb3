package solver

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tumble2d/tumble/components"
)

// wall builds a brick wall of cols x rows unit boxes resting on the ground:
// each box touches the one below (2 points) and its right neighbour (2
// points), the bottom row touches the static ground. Contacts are listed in
// the order a broad phase sorted by body would give.
func wall(cols, rows int) *Solver {
	s := &Solver{}
	n := cols * rows
	for i := 0; i < n; i++ {
		x, y := float64(i%cols), 0.5+float64(i/cols)
		s.Bodies = append(s.Bodies, BodyState{DQ: components.Identity})
		s.Sims = append(s.Sims, BodySim{X: components.Transform{P: components.V(x, y), R: components.Identity},
			InvMass: 1, InvInertia: 6, GravityScale: 1, MaxExtent: 0.7071, Kind: KindDynamic})
	}
	add := func(a, b int32, kb Kind, normal components.Vec2, p0, p1 components.Vec2) {
		c := Contact{A: a, B: b, KindA: KindDynamic, KindB: kb, Count: 2, Normal: normal, Friction: 0.6,
			InvMassA: 1, InvIA: 6}
		if kb == KindDynamic {
			c.InvMassB, c.InvIB = 1, 6
		}
		c.SetPoint(0, p0, 0, 0, 0)
		c.SetPoint(1, p1, 0, 0, 0)
		ca := s.Sims[a].X.P
		cb := components.V(ca.X, -0.5)
		if b >= 0 {
			cb = s.Sims[b].X.P
		}
		c.Prepare(s.Bodies, ca, cb)
		s.Links = append(s.Links, c.Link())
		s.Contacts = append(s.Contacts, c) // link order until Arrange
	}
	for i := 0; i < n; i++ {
		p := s.Sims[i].X.P
		if i < cols {
			add(int32(i), -1, KindStatic, components.V(0, -1), components.V(p.X-0.5, 0), components.V(p.X+0.5, 0))
		} else {
			add(int32(i), int32(i-cols), KindDynamic, components.V(0, -1), components.V(p.X-0.5, p.Y-0.5), components.V(p.X+0.5, p.Y-0.5))
		}
		if i%cols != cols-1 {
			add(int32(i), int32(i+1), KindDynamic, components.V(1, 0), components.V(p.X+0.5, p.Y-0.5), components.V(p.X+0.5, p.Y+0.5))
		}
	}
	return s
}

// BenchmarkSolve reports the cost of one contact point in one iteration: a
// step of n substeps runs warm start, solve and relax on every point each
// substep, so a step is 3 n point-iterations (restitution is skipped at
// e = 0). colored-scalar, colored-avx2 and colored-avx512 solve the same
// coloured wall with the scalar kernels and with the assembly kernels of
// the wide blocks (each only where the CPU has it).
func BenchmarkSolve(b *testing.B) {
	saved, saved512 := wideKernel, wide512
	defer func() { wideKernel, wide512 = saved, saved512 }()
	for _, v := range []struct {
		name              string
		large, wide, w512 bool
	}{{"islands", false, false, false}, {"colored-scalar", true, false, false},
		{"colored-avx2", true, true, false}, {"colored-avx512", true, true, true}} {
		if (v.wide && !saved) || (v.w512 && !saved512) {
			continue // no such kernels here
		}
		large := v.large
		wideKernel, wide512 = v.wide, v.w512
		b.Run(v.name, func(b *testing.B) {
			s := wall(50, 40)
			prm := DefaultParams()
			if !large {
				prm.LargeIslandContacts = 1 << 30
			}
			byLink := slices.Clone(s.Contacts)
			s.BuildIslands(&prm)
			s.Arrange(byLink)
			points := 0
			for k := range s.Contacts {
				points += int(s.Contacts[k].Count)
			}
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.Solve(Serial{}, &prm)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*points*3*prm.SubSteps), "ns/point-iter")
		})
	}
}

// BenchmarkIntegrate reports the cost per body of one substep of velocity
// and position integration (free bodies, no contacts).
func BenchmarkIntegrate(b *testing.B) {
	s := wall(100, 100)
	s.Contacts, s.Links = nil, nil
	prm := DefaultParams()
	s.BuildIslands(&prm)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.Solve(Serial{}, &prm)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(s.Bodies)*prm.SubSteps), "ns/body-substep")
}

// BenchmarkIslands times Islands.build alone on a wall of 45 x 45 boxes,
// each linked to its right and upper neighbours, a quarter of them also to
// the upper right, and the bottom row to the ground: about 4 400 links,
// one island, like tumbler's drum. "ordered" keeps the rows in wall order,
// "shuffled" numbers them at random, as a drum leaves them once it has
// turned a while.
func BenchmarkIslands(b *testing.B) {
	for _, shuffled := range []bool{false, true} {
		name := "ordered"
		if shuffled {
			name = "shuffled"
		}
		b.Run(name, func(b *testing.B) {
			sims, links := islandWall(45, 45, shuffled)
			var is Islands
			for b.Loop() {
				is.build(sims, links, nil)
			}
		})
	}
}

// islandWall returns the rows and links of BenchmarkIslands, the links
// sorted by (A, B) as the broad phase gives them.
func islandWall(cols, rows int, shuffled bool) ([]BodySim, []Link) {
	n := cols * rows
	r := rand.New(rand.NewPCG(1, 2))
	perm := make([]int32, n)
	for i := range perm {
		perm[i] = int32(i)
	}
	if shuffled {
		r.Shuffle(n, func(i, j int) { perm[i], perm[j] = perm[j], perm[i] })
	}
	sims := make([]BodySim, n)
	for i := range sims {
		sims[i].Kind = KindDynamic
	}
	var links []Link
	add := func(i, j int) {
		a, b := min(perm[i], perm[j]), max(perm[i], perm[j])
		links = append(links, Link{A: a, B: b, KindA: KindDynamic, KindB: KindDynamic})
	}
	for i := 0; i < n; i++ {
		right := i%cols != cols-1
		if i < cols {
			links = append(links, Link{A: perm[i], B: -1, KindA: KindDynamic, KindB: KindStatic})
		} else {
			add(i, i-cols)
			if right && r.IntN(4) == 0 {
				add(i, i-cols+1)
			}
		}
		if right {
			add(i, i+1)
		}
	}
	slices.SortFunc(links, func(x, y Link) int {
		if c := cmp.Compare(x.A, y.A); c != 0 {
			return c
		}
		return cmp.Compare(x.B, y.B)
	})
	return sims, links
}

// BenchmarkBuildIslands reports islands plus colouring per contact.
func BenchmarkBuildIslands(b *testing.B) {
	s := wall(100, 50)
	prm := DefaultParams()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		s.BuildIslands(&prm)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(s.Links)), "ns/contact")
}

// BenchmarkJoints reports the cost of one joint in one pass: 100 chains
// of 20 links hanging from static pivots, each link joined to the next by
// the joint of the sub-benchmark's kind. A step of n substeps takes every
// joint through the warm start, the solve and the relax, so a step is 3 n
// joint-passes.
func BenchmarkJoints(b *testing.B) {
	for _, kind := range []components.JointKind{components.JointRevolute, components.JointDistance, components.JointWeld,
		components.JointPrismatic, components.JointWheel, components.JointMotor} {
		b.Run(kind.String(), func(b *testing.B) {
			s := &Solver{}
			for c := 0; c < 100; c++ {
				for i := 0; i < 20; i++ {
					x := components.V(float64(c)*2, -0.5-float64(i))
					s.Bodies = append(s.Bodies, BodyState{DQ: components.Identity})
					s.Sims = append(s.Sims, BodySim{X: components.Transform{P: x, R: components.Identity},
						InvMass: 1, InvInertia: 12, GravityScale: 1, MaxExtent: 0.5, Kind: KindDynamic})
					j := Joint{A: int32(len(s.Sims) - 2), B: int32(len(s.Sims) - 1), KindA: KindDynamic, KindB: KindDynamic}
					j.Kind, j.LocalAnchorA, j.LocalAnchorB = kind, components.V(0, -0.5), components.V(0, 0.5)
					if i == 0 {
						j.A, j.KindA, j.XA = -1, KindStatic, components.Transform{P: x.Add(components.V(0, 0.5)), R: components.Identity}
						j.LocalAnchorA = components.Vec2{}
					}
					if kind == components.JointDistance {
						j.LocalAnchorB, j.Length = components.Vec2{}, 0.5
					}
					if kind == components.JointMotor {
						j.MaxForce, j.MaxMotorTorque, j.Hertz, j.DampingRatio = 1e6, 1e6, 4, 0.7
					}
					if kind == components.JointPrismatic || kind == components.JointWheel {
						j.LocalAxisA = components.V(0, 1)
						j.EnableSpring, j.Hertz, j.DampingRatio = true, 4, 0.7
					}
					s.Joints = append(s.Joints, j)
				}
			}
			prm := DefaultParams()
			s.BuildIslands(&prm)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s.Solve(Serial{}, &prm)
			}
			passes := 3 * prm.SubSteps
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(s.Joints)*passes), "ns/joint-pass")
		})
	}
}
