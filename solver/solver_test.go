package solver_test

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/solver"
)

// TestMakeSoftLimits checks the soft-constraint coefficients.
//
//   - hertz 0 is rigid with no bias: {BiasRate 0, MassScale 1, ImpulseScale 0}
//     exactly.
//   - For any hertz, MassScale + ImpulseScale = 1 (a2/(1+a2) + 1/(1+a2)),
//     within 1e-15.
//   - The formulas of Box2D v3 b2MakeSoft, checked against a hand
//     computation for 30 Hz, zeta 10, h = 1/240 (1e-12 relative).
//   - hertz -> inf tends to the rigid limit: MassScale -> 1, ImpulseScale ->
//     0, BiasRate -> 1/h (the constraint error is removed in one substep).
//   - MassScale grows and ImpulseScale shrinks with hertz (monotone).
func TestMakeSoftLimits(t *testing.T) {
	if s := solver.MakeSoft(0, 10, 1.0/240); s != (solver.Softness{MassScale: 1}) {
		t.Errorf("MakeSoft(0, ...) = %+v, want rigid {0 1 0}", s)
	}
	h := 1.0 / 240
	omega := 2 * math.Pi * 30
	a1 := 2*10 + h*omega
	a2 := h * omega * a1
	want := solver.Softness{BiasRate: omega / a1, MassScale: a2 / (1 + a2), ImpulseScale: 1 / (1 + a2)}
	got := solver.MakeSoft(30, 10, h)
	for _, c := range []struct {
		name      string
		got, want float64
	}{{"BiasRate", got.BiasRate, want.BiasRate}, {"MassScale", got.MassScale, want.MassScale}, {"ImpulseScale", got.ImpulseScale, want.ImpulseScale}} {
		if math.Abs(c.got-c.want) > 1e-12*math.Abs(c.want) {
			t.Errorf("MakeSoft(30, 10, 1/240).%s = %.15g, want %.15g", c.name, c.got, c.want)
		}
	}
	prev := solver.Softness{}
	for _, hz := range []float64{0.1, 1, 10, 30, 60, 120, 1e3, 1e6} {
		for _, zeta := range []float64{0, 0.5, 1, 10} {
			s := solver.MakeSoft(hz, zeta, h)
			if d := math.Abs(s.MassScale + s.ImpulseScale - 1); d > 1e-15 {
				t.Errorf("MakeSoft(%g, %g): MassScale + ImpulseScale = 1 + %.3g", hz, zeta, d)
			}
			if !(s.BiasRate > 0) || !(s.MassScale > 0 && s.MassScale < 1) || !(s.ImpulseScale > 0 && s.ImpulseScale < 1) {
				t.Errorf("MakeSoft(%g, %g) = %+v out of range", hz, zeta, s)
			}
		}
		s := solver.MakeSoft(hz, 10, h)
		if prev != (solver.Softness{}) && (s.MassScale <= prev.MassScale || s.ImpulseScale >= prev.ImpulseScale) {
			t.Errorf("MakeSoft not monotone in hertz at %g: %+v after %+v", hz, s, prev)
		}
		prev = s
	}
	stiff := solver.MakeSoft(1e9, 10, h)
	if math.Abs(stiff.MassScale-1) > 1e-9 || stiff.ImpulseScale > 1e-9 || math.Abs(stiff.BiasRate*h-1) > 1e-6 {
		t.Errorf("MakeSoft(1e9) = %+v, want -> {1/h, 1, 0}", stiff)
	}
}

// TestParamsSoftness: contacts between moving bodies use ContactHertz capped
// at a quarter of the substep rate; contacts against static or kinematic
// bodies twice that; contacts between bodies of masses apart by more than
// HeavyMassRatio the lower of ContactHertz and HeavyContactHertz.
func TestParamsSoftness(t *testing.T) {
	p := solver.DefaultParams()
	h := p.Dt / float64(p.SubSteps)
	if got, want := p.Softness(false), solver.MakeSoft(60, p.ContactDampingRatio, h); got != want {
		t.Errorf("Softness(false) = %+v, want MakeSoft(60) %+v", got, want)
	}
	if got, want := p.Softness(true), solver.MakeSoft(120, p.ContactDampingRatio, h); got != want {
		t.Errorf("Softness(true) = %+v, want MakeSoft(120) %+v", got, want)
	}
	if got, want := p.HeavySoftness(), solver.MakeSoft(30, p.ContactDampingRatio, h); got != want {
		t.Errorf("HeavySoftness() = %+v, want MakeSoft(30) %+v", got, want)
	}
	p.ContactHertz = 1000 // capped at 0.25 / h = 60 Hz
	if got, want := p.Softness(false), solver.MakeSoft(0.25/h, p.ContactDampingRatio, h); got != want {
		t.Errorf("capped Softness(false) = %+v, want MakeSoft(%g) %+v", got, 0.25/h, want)
	}
	p.ContactHertz = 20 // below HeavyContactHertz: the heavy contacts follow it
	if got, want := p.HeavySoftness(), solver.MakeSoft(20, p.ContactDampingRatio, h); got != want {
		t.Errorf("HeavySoftness() at ContactHertz 20 = %+v, want MakeSoft(20) %+v", got, want)
	}
}

// dyn, kin and static make contact sides.
func contact(a int32, ka solver.Kind, b int32, kb solver.Kind) solver.Link {
	if ka == solver.KindStatic {
		a = -1
	}
	if kb == solver.KindStatic {
		b = -1
	}
	return solver.Link{A: a, B: b, KindA: ka, KindB: kb}
}

// pick returns the links listed, in list order: the links an engine would
// pass for its touching contacts.
func pick(all []solver.Link, list []int32) []solver.Link {
	out := make([]solver.Link, len(list))
	for i, ci := range list {
		out[i] = all[ci]
	}
	return out
}

const (
	D = solver.KindDynamic
	K = solver.KindKinematic
	S = solver.KindStatic
)

// TestIslandsBuild: a hand-made contact graph of 8 body rows:
//
//	rows 0..7 kinds: D D D K D D D D
//	contacts: 0:(0,1) 1:(1,2) 2:(2,3 kinematic) 3:(3 kinematic,4)
//	          4:(4,5) 5:(5,static) 6:(6,static) 7:(0,static)
//	          8:(3 kinematic, static)  9:(2,0) 10:(5,4) not touching
//
// Islands: {0,1,2} (contacts 0, 1, 2, 7, 9), {4,5} (3, 4, 5), {6} (6), {7}
// (no contacts). The kinematic row 3 joins neither island, although it
// touches both; static contacts join nothing; contact 8 (kinematic-static)
// belongs to no island; the untouched contact 10 is ignored. Islands are
// numbered by their lowest row; lists are ascending.
func TestIslandsBuild(t *testing.T) {
	kinds := []solver.Kind{D, D, D, K, D, D, D, D}
	sims := make([]solver.BodySim, len(kinds))
	for i, k := range kinds {
		sims[i].Kind = k
	}
	contacts := []solver.Link{
		contact(0, D, 1, D), contact(1, D, 2, D), contact(2, D, 3, K), contact(3, K, 4, D),
		contact(4, D, 5, D), contact(5, D, 0, S), contact(0, S, 6, D), contact(0, D, 0, S),
		contact(3, K, 0, S), contact(2, D, 0, D), contact(5, D, 4, D),
	}
	touching := []int32{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}
	var is solver.Islands
	for round := 0; round < 2; round++ { // the second round reuses the buffers
		is.Build(sims, pick(contacts, touching))
		wantBodies := [][]int32{{0, 1, 2}, {4, 5}, {6}, {7}}
		wantContacts := [][]int32{{0, 1, 2, 7, 9}, {3, 4, 5}, {6}, {}}
		if is.Len() != len(wantBodies) {
			t.Fatalf("round %d: %d islands, want %d", round, is.Len(), len(wantBodies))
		}
		for k := range wantBodies {
			if !slices.Equal(is.Bodies(k), wantBodies[k]) {
				t.Errorf("round %d: island %d bodies %v, want %v", round, k, is.Bodies(k), wantBodies[k])
			}
			if !slices.Equal(is.Contacts(k), wantContacts[k]) {
				t.Errorf("round %d: island %d contacts %v, want %v", round, k, is.Contacts(k), wantContacts[k])
			}
		}
		wantOf := []int32{0, 0, 0, -1, 1, 1, 2, 3}
		if !slices.Equal(is.Of, wantOf) {
			t.Errorf("round %d: Of = %v, want %v", round, is.Of, wantOf)
		}
	}
}

// TestIslandsRandomGraph checks Islands.Build against a breadth-first search
// on random graphs: same partition, every dynamic row in exactly one island,
// every touching contact with a dynamic side in its island exactly once.
func TestIslandsRandomGraph(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	var is solver.Islands
	for trial := 0; trial < 50; trial++ {
		n := 1 + rng.IntN(60)
		sims := make([]solver.BodySim, n)
		for i := range sims {
			sims[i].Kind = D
			if rng.IntN(6) == 0 {
				sims[i].Kind = K
			}
		}
		var contacts []solver.Link
		var touching []int32
		m := rng.IntN(2 * n)
		for c := 0; c < m; c++ {
			a, b := int32(rng.IntN(n)), int32(rng.IntN(n))
			ka, kb := sims[a].Kind, sims[b].Kind
			if rng.IntN(5) == 0 {
				kb = S
			}
			contacts = append(contacts, contact(a, ka, b, kb))
			if rng.IntN(4) != 0 {
				touching = append(touching, int32(c))
			}
		}
		is.Build(sims, pick(contacts, touching))
		comp, next := solver.IslandsBFS(sims, pick(contacts, touching))
		if is.Len() != int(next) {
			t.Fatalf("trial %d: %d islands, BFS finds %d", trial, is.Len(), next)
		}
		if !slices.Equal(is.Of, comp) {
			t.Fatalf("trial %d: Of %v, BFS %v", trial, is.Of, comp)
		}
		seen := make(map[int32]int)
		for k := 0; k < is.Len(); k++ {
			for _, b := range is.Bodies(k) {
				if comp[b] != int32(k) {
					t.Fatalf("trial %d: body %d listed in island %d, belongs to %d", trial, b, k, comp[b])
				}
			}
			if !slices.IsSorted(is.Bodies(k)) || !slices.IsSorted(is.Contacts(k)) {
				t.Fatalf("trial %d: island %d lists not ascending", trial, k)
			}
			for _, li := range is.Contacts(k) {
				ci := touching[li]
				seen[ci]++
				c := contacts[ci]
				side := c.A
				if c.KindA != D {
					side = c.B
				}
				if comp[side] != int32(k) {
					t.Fatalf("trial %d: contact %d in island %d, its dynamic side in %d", trial, ci, k, comp[side])
				}
			}
		}
		for _, ci := range touching {
			c := contacts[ci]
			want := 0
			if c.KindA == D || c.KindB == D {
				want = 1
			}
			if seen[ci] != want {
				t.Fatalf("trial %d: contact %d listed %d times, want %d", trial, ci, seen[ci], want)
			}
		}
	}
}

// TestColoringBuild: on random contact lists (including dense ones that
// overflow the 64 colours, and static and kinematic sides), every listed
// contact is in exactly one colour or in the overflow, no two contacts of a
// colour share a dynamic body, colours are non-empty, and the result depends
// only on the input (a second Build gives the same).
func TestColoringBuild(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	var g solver.Coloring
	for trial := 0; trial < 40; trial++ {
		n := 2 + rng.IntN(100)
		dense := trial%4 == 0
		var contacts []solver.Link
		m := rng.IntN(5 * n)
		if dense {
			n = 4 // 4 bodies, hundreds of contacts: must overflow
			m = 300
		}
		for c := 0; c < m; c++ {
			a, b := int32(rng.IntN(n)), int32(rng.IntN(n-1))
			if b >= a {
				b++ // a body never touches itself
			}
			ka, kb := D, D
			switch rng.IntN(6) {
			case 0:
				kb = S
			case 1:
				ka = K
			}
			l := contact(a, ka, b, kb)
			l.Points = uint8(rng.IntN(3)) // 0 counts as 2
			contacts = append(contacts, l)
		}
		// List a random subset, in a random order.
		var list []int32
		for c := range contacts {
			if rng.IntN(3) != 0 {
				list = append(list, int32(c))
			}
		}
		rng.Shuffle(len(list), func(i, j int) { list[i], list[j] = list[j], list[i] })
		g.Build(contacts, list, n)
		pos := make(map[int32]int, len(list))
		for i, ci := range list {
			pos[ci] = i
		}
		count := make(map[int32]int)
		for k := 0; k < g.Colors(); k++ {
			col := g.Color(k)
			if len(col) == 0 {
				t.Errorf("trial %d: colour %d is empty", trial, k)
			}
			// Two-point links first, then one-point links, each in list order.
			for i := 1; i < len(col); i++ {
				one0, one1 := contacts[col[i-1]].Points == 1, contacts[col[i]].Points == 1
				if one0 && !one1 || one0 == one1 && pos[col[i-1]] > pos[col[i]] {
					t.Fatalf("trial %d: colour %d lists %d (points %d) before %d (points %d)", trial, k,
						col[i-1], contacts[col[i-1]].Points, col[i], contacts[col[i]].Points)
				}
			}
			used := make(map[int32]bool)
			for _, ci := range col {
				count[ci]++
				c := contacts[ci]
				for _, s := range []struct {
					i int32
					k solver.Kind
				}{{c.A, c.KindA}, {c.B, c.KindB}} {
					if s.k != D {
						continue
					}
					if used[s.i] {
						t.Fatalf("trial %d: colour %d has two contacts on dynamic body %d", trial, k, s.i)
					}
					used[s.i] = true
				}
			}
		}
		for _, ci := range g.Overflow {
			count[ci]++
		}
		for _, ci := range list {
			if count[ci] != 1 {
				t.Fatalf("trial %d: contact %d coloured %d times", trial, ci, count[ci])
			}
		}
		if len(count) != len(list) {
			t.Fatalf("trial %d: %d contacts coloured, %d listed", trial, len(count), len(list))
		}
		if dense && len(g.Overflow) == 0 {
			t.Errorf("trial %d: 300 contacts on 4 bodies fit in %d colours without overflow", trial, g.Colors())
		}
		if g.Colors() > 64 {
			t.Errorf("trial %d: %d colours, at most 64", trial, g.Colors())
		}
		// Same input, same output.
		start, lst, ov := slices.Clone(g.Start), slices.Clone(g.List), slices.Clone(g.Overflow)
		g.Build(contacts, list, n)
		if !slices.Equal(start, g.Start) || !slices.Equal(lst, g.List) || !slices.Equal(ov, g.Overflow) {
			t.Fatalf("trial %d: second Build differs", trial)
		}
	}
}

// TestColoringStaticSidesTakeNoColor: contacts of many dynamic bodies against
// one static body all fit in colour 0: the static side takes no colour.
func TestColoringStaticSidesTakeNoColor(t *testing.T) {
	var contacts []solver.Link
	var list []int32
	for i := int32(0); i < 100; i++ {
		contacts = append(contacts, contact(i, D, 0, S))
		contacts = append(contacts, contact(0, K, i, D))
		list = append(list, 2*i)
	}
	var g solver.Coloring
	g.Build(contacts, list, 100)
	if g.Colors() != 1 || len(g.Color(0)) != 100 || len(g.Overflow) != 0 {
		t.Errorf("100 contacts against a static body: %d colours, overflow %d, want 1 colour of 100", g.Colors(), len(g.Overflow))
	}
	list = list[:0]
	for i := int32(0); i < 100; i++ {
		list = append(list, 2*i+1)
	}
	g.Build(contacts, list, 100)
	if g.Colors() != 1 || len(g.Overflow) != 0 {
		t.Errorf("100 contacts against a kinematic body: %d colours, overflow %d, want 1", g.Colors(), len(g.Overflow))
	}
}

// TestSolveFreeBodies drives the solver directly: two free bodies with
// gravity, no contacts, Serial executor. After one step of n substeps,
// v = v0 + n h g and the position change is n h v0 + h^2 g n (n + 1) / 2
// (symplectic Euler), within 1e-12; FinalPose applies it; a kinematic row
// moves by dt v and is not accelerated.
func TestSolveFreeBodies(t *testing.T) {
	p := solver.DefaultParams()
	var s solver.Solver
	s.Bodies = []solver.BodyState{
		{V: components.V(1, 2), W: 0.5, DQ: components.Identity},
		{V: components.V(-1, 0), W: 1, DQ: components.Identity},
	}
	s.Sims = []solver.BodySim{
		{X: components.NewTransform(0, 10, 0), InvMass: 1, InvInertia: 1, GravityScale: 1, Kind: D, MaxExtent: 1},
		{X: components.NewTransform(5, 5, 0.3), Kind: K, MaxExtent: 1},
	}
	s.BuildIslands(&p)
	s.Solve(solver.Serial{}, &p)
	n := float64(p.SubSteps)
	h := p.Dt / n
	wantV := components.V(1, 2).MulAdd(n*h, p.Gravity)
	wantDP := components.V(1, 2).Scale(n*h).MulAdd(h*h*n*(n+1)/2, p.Gravity)
	if d := s.Bodies[0].V.Sub(wantV).Len(); d > 1e-12 {
		t.Errorf("velocity %v, want %v", s.Bodies[0].V, wantV)
	}
	if d := s.Bodies[0].DP.Sub(wantDP).Len(); d > 1e-12 {
		t.Errorf("position change %v, want %v", s.Bodies[0].DP, wantDP)
	}
	xf := solver.FinalPose(&s.Sims[0], &s.Bodies[0], p.Dt)
	if d := xf.P.Sub(components.V(0, 10).Add(wantDP)).Len(); d > 1e-12 {
		t.Errorf("final pose %v", xf.P)
	}
	if s.Bodies[1].V != components.V(-1, 0) || s.Bodies[1].W != 1 {
		t.Errorf("kinematic row accelerated: %+v", s.Bodies[1])
	}
	kx := solver.FinalPose(&s.Sims[1], &s.Bodies[1], p.Dt)
	if d := kx.P.Sub(components.V(5-p.Dt, 5)).Len(); d > 1e-12 || math.Abs(kx.Angle()-(0.3+p.Dt)) > 1e-12 {
		t.Errorf("kinematic final pose %+v, want (%.6f, 5) angle %.6f", kx, 5-p.Dt, 0.3+p.Dt)
	}
}

// TestSolveContactMomentum drives the solver with one hand-made contact
// between two dynamic bodies approaching head on (no gravity): the contact
// stops the approach (relative normal velocity >= -1e-9 after the step),
// linear momentum is conserved to 1e-12, the accumulated normal impulse is
// positive, and with restitution 1 and an approach above the threshold the
// bodies separate at the approach speed (1e-9 relative).
func TestSolveContactMomentum(t *testing.T) {
	for _, e := range []float64{0, 1} {
		p := solver.DefaultParams()
		p.Gravity = components.Vec2{}
		var s solver.Solver
		s.Bodies = []solver.BodyState{
			{V: components.V(2, 0), DQ: components.Identity},
			{V: components.V(-1, 0), DQ: components.Identity},
		}
		s.Sims = []solver.BodySim{
			{X: components.NewTransform(-0.5, 0, 0), InvMass: 1, InvInertia: 2, GravityScale: 1, Kind: D},
			{X: components.NewTransform(0.5, 0, 0), InvMass: 0.5, InvInertia: 1, GravityScale: 1, Kind: D},
		}
		c := solver.Contact{A: 0, B: 1, KindA: D, KindB: D, Count: 1, Normal: components.V(1, 0),
			Friction: 0.5, Restitution: e, InvMassA: 1, InvIA: 2, InvMassB: 0.5, InvIB: 1}
		c.SetPoint(0, components.V(0, 0), 0, 0, 0) // touching at the origin
		c.Prepare(s.Bodies, s.Sims[0].X.P, s.Sims[1].X.P)
		s.Links = []solver.Link{c.Link()}
		s.BuildIslands(&p)
		s.Arrange([]solver.Contact{c})
		p0 := s.Bodies[0].V.Scale(1).Add(s.Bodies[1].V.Scale(2))
		s.Solve(solver.Serial{}, &p)
		p1 := s.Bodies[0].V.Scale(1).Add(s.Bodies[1].V.Scale(2))
		if d := p1.Sub(p0).Len(); d > 1e-12 {
			t.Errorf("e = %g: momentum %v -> %v", e, p0, p1)
		}
		vrel := s.Bodies[1].V.X - s.Bodies[0].V.X
		if vrel < -1e-9 {
			t.Errorf("e = %g: still approaching at %.6g m/s after the step", e, vrel)
		}
		if s.Contacts[0].Points[0].NormalImpulse <= 0 {
			t.Errorf("e = %g: normal impulse %g, want > 0", e, s.Contacts[0].Points[0].NormalImpulse)
		}
		if e == 1 && math.Abs(vrel-3) > 3e-9 {
			t.Errorf("e = 1: separating at %.12g m/s, want the approach speed 3", vrel)
		}
	}
}

// TestSetPointResetsEveryField checks that SetPoint leaves a reused point
// exactly as a fresh one holding only its inputs: it writes the fields one
// by one, so a field added to ContactPoint and forgotten there would keep
// last tick's value.
func TestSetPointResetsEveryField(t *testing.T) {
	var c solver.Contact
	for j := range c.Points {
		c.Points[j] = solver.ContactPoint{RA: components.V(1, 2), RB: components.V(3, 4), BaseSeparation: 5,
			NormalMass: 6, TangentMass: 7, NormalImpulse: 8, TangentImpulse: 9, MaxNormalImpulse: 10, RelativeVelocity: 11}
		c.SetPoint(j, components.V(-1, -2), -0.25, 0.5, -0.75)
		want := solver.ContactPoint{RA: components.V(-1, -2), BaseSeparation: -0.25, NormalImpulse: 0.5, TangentImpulse: -0.75}
		if c.Points[j] != want {
			t.Fatalf("point %d: got %+v, want %+v", j, c.Points[j], want)
		}
	}
}

// TestAimRestitution checks the approach velocity that restitution reverses
// on hand-made contacts: a ball at rest above a static floor (normal from
// the floor A up to the ball B, so the normal velocity is the ball's
// vertical velocity) at gap s0, falling at vn under the relative
// acceleration a (dt = 0.1 s).
//   - falling onto the floor (a = -10): -sqrt(vn^2 + 2 |a| s0), no faster
//     than at the end of the step (vn + a dt);
//   - thrown up at a ceiling (normal down, so a = +10 along it): the gap
//     closes slower, -sqrt(vn^2 - 2 a s0);
//   - a gap the accelerations never close, points already touching, and
//     points approaching slower than the threshold (1 m/s) at the start
//     keep vn (1e-12 relative).
func TestAimRestitution(t *testing.T) {
	const dt = 0.1
	cases := []struct {
		name         string
		normal       components.Vec2
		accel        components.Vec2
		vn, s0, want float64
	}{
		{"falls onto the floor", components.V(0, 1), components.V(0, -10), -3, 0.1, -math.Sqrt(9 + 2)},
		{"capped at the step's end", components.V(0, 1), components.V(0, -10), -1.5, 0.3, -2.5},
		{"rises into a ceiling", components.V(0, -1), components.V(0, -10), -3, 0.1, -math.Sqrt(9 - 2)},
		{"sideways gravity changes nothing", components.V(1, 0), components.V(0, -10), -3, 0.1, -3},
		{"never reaches the ceiling", components.V(0, -1), components.V(0, -10), -1, 0.1, -1},
		{"moving away, pulled apart", components.V(0, 1), components.V(0, 10), 0.5, 0.1, 0.5},
		{"already touching", components.V(0, 1), components.V(0, -10), -3, -0.01, -3},
		{"slower than the threshold", components.V(0, 1), components.V(0, -10), -0.9, 0.1, -0.9},
	}
	for _, tc := range cases {
		ball := components.V(0, 0.5)
		floor := ball.Sub(tc.normal.Scale(0.5 + tc.s0))
		bodies := []solver.BodyState{{V: tc.normal.Scale(tc.vn), DQ: components.Identity}}
		c := solver.Contact{A: -1, B: 0, KindA: solver.KindStatic, KindB: D, Count: 1, Normal: tc.normal,
			Restitution: 0.5, InvMassB: 1, InvIB: 1}
		// The manifold point lies on the ball's surface, s0 from the floor.
		c.SetPoint(0, ball.Sub(tc.normal.Scale(0.5)), tc.s0, 0, 0)
		c.Prepare(bodies, floor, ball)
		c.AimRestitution(tc.accel, dt, 1)
		if got := c.Points[0].RelativeVelocity; math.Abs(got-tc.want) > 1e-12*math.Max(1, math.Abs(tc.want)) {
			t.Errorf("%s: approach velocity %.15g, want %.15g", tc.name, got, tc.want)
		}
	}
}
