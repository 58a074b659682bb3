package solver

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tumble2d/tumble/components"
)

// randomBounce makes a two-point contact in which both points bounce
// (approach faster than the threshold, pushed in a substep), between a
// dynamic B and a side A that is dynamic, static or kinematic, with random
// masses, anchors, velocities, accumulated impulses and restitution.
func randomBounce(r *rand.Rand, p *stepParams) (Contact, []BodyState) {
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*r.Float64() }
	a := u(0, 2*math.Pi)
	n := components.Vec2{X: math.Cos(a), Y: math.Sin(a)}
	t := n.RightPerp()
	c := Contact{A: 0, B: 1, KindA: Kind(r.IntN(3)), KindB: KindDynamic, Count: 2, Normal: n,
		Restitution: u(0.05, 1)}
	bodies := make([]BodyState, 2)
	c.InvMassB, c.InvIB = 1/u(0.1, 10), 1/u(0.01, 5)
	if c.KindA == KindDynamic {
		c.InvMassA, c.InvIA = 1/u(0.1, 10), 1/u(0.01, 5)
	}
	if c.KindA == KindStatic {
		c.A = -1
	} else {
		bodies[0].V, bodies[0].W = components.Vec2{X: u(-5, 5), Y: u(-5, 5)}, u(-3, 3)
	}
	bodies[1].V, bodies[1].W = components.Vec2{X: u(-5, 5), Y: u(-5, 5)}, u(-3, 3)
	// Two points on a face of B: a common offset along -n and spread along
	// the tangent, the anchors of A a random offset away.
	half := u(0.01, 2)
	base := n.Scale(-u(0.05, 1)).MulAdd(u(-1, 1), t)
	shiftA := components.Vec2{X: u(-2, 2), Y: u(-2, 2)}
	for j, s := range []float64{-half, half} {
		cp := &c.Points[j]
		cp.RB = base.MulAdd(s+u(-0.1, 0.1)*half, t)
		cp.RA = cp.RB.Add(shiftA)
		cp.NormalImpulse = u(0, 2)
		cp.MaxNormalImpulse = u(0.01, 1)
		cp.RelativeVelocity = -p.restitutionThreshold - u(0, 10)
		rnA, rnB := cp.RA.Cross(n), cp.RB.Cross(n)
		cp.NormalMass = 1 / (c.InvMassA + c.InvMassB + c.InvIA*rnA*rnA + c.InvIB*rnB*rnB)
	}
	return c, bodies
}

// normalVelocities returns the normal relative velocity at each point of c.
func normalVelocities(c *Contact, bodies []BodyState) [2]float64 {
	vA, wA := sideVelocity(bodies, c.A, c.KindA)
	vB, wB := sideVelocity(bodies, c.B, c.KindB)
	var vn [2]float64
	for j := range vn {
		cp := &c.Points[j]
		vn[j] = normalVelocity(c.Normal, cp, vA, wA, vB, wB)
	}
	return vn
}

// TestRestitutionBlockSolvesTheLCP checks the two-point restitution on
// random contacts (every kind of side A, badly conditioned pairs included)
// against a brute-force oracle: projected Gauss-Seidel on the same linear
// complementarity problem, iterated until it no longer moves. Where the
// pair's matrix is well conditioned (the block path), the accumulated
// impulses must match the oracle's within 1e-7 relative, and the result
// must satisfy the problem itself: impulses >= 0, each point leaving at
// least at its target -e u, and the target met exactly where a point
// pushes (1e-9 relative). Where it is not, the points are solved one after
// the other and each ends no slower than its target or with no impulse left
// for the point solved last.
func TestRestitutionBlockSolvesTheLCP(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	p := &stepParams{restitutionThreshold: 1}
	blocks, cases := 0, 0
	states := map[[2]bool]int{}
	for it := 0; it < 20000; it++ {
		c, bodies := randomBounce(r, p)
		oracle := c
		oracleBodies := append([]BodyState(nil), bodies...)
		xo := pgsRestitution(&oracle, oracleBodies)
		cases++
		p1, p2 := &c.Points[0], &c.Points[1]
		n := c.Normal
		rnA1, rnB1, rnA2, rnB2 := p1.RA.Cross(n), p1.RB.Cross(n), p2.RA.Cross(n), p2.RB.Cross(n)
		k11 := c.InvMassA + c.InvMassB + c.InvIA*rnA1*rnA1 + c.InvIB*rnB1*rnB1
		k22 := c.InvMassA + c.InvMassB + c.InvIA*rnA2*rnA2 + c.InvIB*rnB2*rnB2
		k12 := c.InvMassA + c.InvMassB + c.InvIA*rnA1*rnA2 + c.InvIB*rnB1*rnB2
		wellConditioned := k11*k11 < maxCondition*(k11*k22-k12*k12)
		vA, wA := sideVelocity(bodies, c.A, c.KindA)
		vB, wB := sideVelocity(bodies, c.B, c.KindB)
		x, ok := restituteBlock(&c, &vA, &wA, &vB, &wB, nil)
		if ok != wellConditioned {
			t.Fatalf("case %d: block solve taken %v, want %v", it, ok, wellConditioned)
		}
		if ok {
			storeSides(&c, bodies, vA, wA, vB, wB)
		} else {
			applyRestitution(&c, bodies, p, nil)
			x = [2]float64{p1.NormalImpulse, p2.NormalImpulse}
		}
		vn := normalVelocities(&c, bodies)
		scale := 1 + math.Abs(p1.RelativeVelocity) + math.Abs(p2.RelativeVelocity)
		if !wellConditioned {
			// Sequential: the last point solved meets its target or has
			// no impulse left.
			w := vn[1] + c.Restitution*p2.RelativeVelocity
			if x[1] < 0 || (x[1] > 0 && math.Abs(w) > 1e-9*scale) || w < -1e-9*scale {
				t.Fatalf("case %d (sequential): second point impulse %g, velocity over target %g", it, x[1], w)
			}
			continue
		}
		blocks++
		states[[2]bool{x[0] > 0, x[1] > 0}]++
		for j := 0; j < 2; j++ {
			w := vn[j] + c.Restitution*c.Points[j].RelativeVelocity
			if x[j] < 0 {
				t.Fatalf("case %d: point %d impulse %g < 0", it, j, x[j])
			}
			if w < -1e-9*scale {
				t.Fatalf("case %d: point %d leaves %g slower than its target", it, j, -w)
			}
			if x[j] > 0 && math.Abs(w) > 1e-9*scale*(1+math.Sqrt(k11*k22)/math.Sqrt(k11*k22-k12*k12)) {
				t.Fatalf("case %d: point %d pushes (%g) but misses its target by %g", it, j, x[j], w)
			}
			if d := math.Abs(x[j] - xo[j]); d > 1e-7*(1+math.Abs(xo[j])) {
				t.Fatalf("case %d: point %d impulse %.12g, oracle %.12g", it, j, x[j], xo[j])
			}
		}
		for i := range bodies {
			if d := bodies[i].V.Sub(oracleBodies[i].V); math.Hypot(d.X, d.Y) > 1e-6*scale || math.Abs(bodies[i].W-oracleBodies[i].W) > 1e-5*scale {
				t.Fatalf("case %d: body %d ends at %v %g, oracle %v %g", it, i, bodies[i].V, bodies[i].W, oracleBodies[i].V, oracleBodies[i].W)
			}
		}
	}
	t.Logf("%d cases, %d on the block path; which points push (first, second): %v", cases, blocks, states)
	for _, s := range [][2]bool{{true, true}, {true, false}, {false, true}, {false, false}} {
		if states[s] == 0 {
			t.Errorf("no case had points pushing %v: the random contacts miss a branch", s)
		}
	}
}

// pgsRestitution solves the restitution problem of c by projected
// Gauss-Seidel to convergence, applies the result to bodies and returns the
// accumulated impulses. It is the oracle of the block solve.
func pgsRestitution(c *Contact, bodies []BodyState) [2]float64 {
	n := c.Normal
	vA, wA := sideVelocity(bodies, c.A, c.KindA)
	vB, wB := sideVelocity(bodies, c.B, c.KindB)
	for it := 0; it < 200000; it++ {
		moved := 0.0
		for j := 0; j < 2; j++ {
			cp := &c.Points[j]
			impulse := -cp.NormalMass * (normalVelocity(n, cp, vA, wA, vB, wB) + c.Restitution*cp.RelativeVelocity)
			newImpulse := math.Max(cp.NormalImpulse+impulse, 0)
			impulse = newImpulse - cp.NormalImpulse
			cp.NormalImpulse = newImpulse
			P := n.Scale(impulse)
			vA = vA.MulAdd(-c.InvMassA, P)
			wA -= c.InvIA * cp.RA.Cross(P)
			vB = vB.MulAdd(c.InvMassB, P)
			wB += c.InvIB * cp.RB.Cross(P)
			moved = math.Max(moved, math.Abs(impulse))
		}
		if moved < 1e-15*(1+c.Points[0].NormalImpulse+c.Points[1].NormalImpulse) {
			break
		}
	}
	if c.KindA == KindDynamic {
		bodies[c.A].V, bodies[c.A].W = vA, wA
	}
	bodies[c.B].V, bodies[c.B].W = vB, wB
	return [2]float64{c.Points[0].NormalImpulse, c.Points[1].NormalImpulse}
}
