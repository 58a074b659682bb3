package narrowphase

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/tumble2d/tumble/components"
)

// Analytic box-box cases. Tolerance eps = 1e-12 m unless a test says
// otherwise; aligned configurations are checked for exact zeros because the
// kernel works in the reference frame, where they are exact.

func TestBoxRestingOnBox(t *testing.T) {
	// Ground box 4 x 1 centred at the origin, unit box resting at x = 0.3:
	// bottom face y = 0.5 on the top face y = 0.5.
	ha, hb := components.V(2, 0.5), components.V(0.5, 0.5)
	xfA := components.NewTransform(0, 0, 0)
	xfB := components.NewTransform(0.3, 1, 0)
	m := CollideBoxes(ha, xfA, hb, xfB, 0)
	if m.Count != 2 || m.Normal != components.V(0, 1) {
		t.Fatalf("resting: %+v", m)
	}
	xs := map[float64]bool{}
	for _, p := range m.Points[:m.Count] {
		if p.Separation != 0 || p.P.Y != 0.5 {
			t.Fatalf("resting point %+v: want separation 0 exactly at y = 0.5", p)
		}
		xs[math.Round(p.P.X*1e9)/1e9] = true
	}
	if !xs[-0.2] || !xs[0.8] {
		t.Fatalf("resting points at %v, want x = -0.2 and 0.8", xs)
	}
	if m.Points[0].ID == m.Points[1].ID {
		t.Fatalf("equal ids %d", m.Points[0].ID)
	}
	// Swapped: normal flips, same points and separations.
	w := CollideBoxes(hb, xfB, ha, xfA, 0)
	if w.Count != 2 || w.Normal != components.V(0, -1) {
		t.Fatalf("resting swapped: %+v", w)
	}
}

func TestBoxCornerIntoFace(t *testing.T) {
	// Unit box rotated 45 degrees, its lowest corner 0.1 below the top face
	// (y = 0.5) of the ground box: one point, normal +y, separation -0.1,
	// midway point 0.05 below the face.
	ha, hb := components.V(2, 0.5), components.V(0.5, 0.5)
	xfA := components.NewTransform(0, 0, 0)
	xfB := components.NewTransform(0.4, 0.5+0.5*math.Sqrt2-0.1, math.Pi/4)
	m := CollideBoxes(ha, xfA, hb, xfB, 0)
	if m.Count != 1 || !nearV(m.Normal, components.V(0, 1)) || !near(m.Points[0].Separation, -0.1) ||
		!nearV(m.Points[0].P, components.V(0.4, 0.45)) {
		t.Fatalf("corner: %+v", m)
	}
	// The same with B first: B's corner is now the incident feature of A's
	// face, the reference face is on the second box, the normal -y.
	w := CollideBoxes(hb, xfB, ha, xfA, 0)
	if w.Count != 1 || !nearV(w.Normal, components.V(0, -1)) || !near(w.Points[0].Separation, -0.1) ||
		w.Points[0].ID&idRefIsB == 0 {
		t.Fatalf("corner swapped: %+v", w)
	}
}

func TestBoxSpeculative(t *testing.T) {
	// Unit box hovering 0.05 above another: two speculative points with
	// separation +0.05 inside margin 0.1, none with margin 0.04.
	h := components.V(0.5, 0.5)
	xfA := components.NewTransform(0, 0, 0.2)
	xfB := components.Transform{P: xfA.Apply(components.V(0.25, 1.05)), R: xfA.R}
	m := CollideBoxes(h, xfA, h, xfB, 0.1)
	if m.Count != 2 || !nearV(m.Normal, xfA.R.Y()) {
		t.Fatalf("speculative: %+v", m)
	}
	for _, p := range m.Points[:2] {
		if !near(p.Separation, 0.05) {
			t.Fatalf("speculative separation %v, want 0.05", p.Separation)
		}
	}
	if m := CollideBoxes(h, xfA, h, xfB, 0.04); m.Count != 0 {
		t.Fatalf("beyond margin: %+v", m)
	}
	// An exactly aligned column with a gap keeps two points (not a corner
	// pair), and the same ids as when resting.
	col := components.NewTransform(0, 1.001, 0)
	rest := components.NewTransform(0, 1, 0)
	mc := CollideBoxes(h, components.NewTransform(0, 0, 0), h, col, 0.01)
	mr := CollideBoxes(h, components.NewTransform(0, 0, 0), h, rest, 0.01)
	if mc.Count != 2 || mr.Count != 2 || mc.Points[0].ID != mr.Points[0].ID || mc.Points[1].ID != mr.Points[1].ID {
		t.Fatalf("aligned column: hovering %+v resting %+v", mc, mr)
	}
}

func TestBoxCornerToCorner(t *testing.T) {
	// Diagonally offset boxes: A = [-1,1]^2, B's lower-left corner at
	// (1.1, 1.05). The closest features are the two corners: one point,
	// corner-to-corner normal, separation = corner distance, midpoint.
	ha, hb := components.V(1, 1), components.V(0.5, 0.5)
	xfA := components.NewTransform(0, 0, 0)
	xfB := components.NewTransform(1.6, 1.55, 0)
	m := CollideBoxes(ha, xfA, hb, xfB, 0.2)
	d := math.Hypot(0.1, 0.05)
	if m.Count != 1 || !near(m.Points[0].Separation, d) || !nearV(m.Normal, components.V(0.1/d, 0.05/d)) ||
		!nearV(m.Points[0].P, components.V(1.05, 1.025)) || m.Points[0].ID&idCornerPts == 0 {
		t.Fatalf("corner-corner: %+v", m)
	}
	if m := CollideBoxes(ha, xfA, hb, xfB, 0.11); m.Count != 0 {
		t.Fatalf("corner-corner beyond margin (face separation 0.1 < margin < distance %v): %+v", d, m)
	}
	// B's lower-left corner beyond A's top-right corner by only 1e-10 in x
	// (below the 1e-9 m corner offset): the pair goes to clipping, which
	// keeps nothing, and falls back to the closest pair: one point, normal
	// +y to within 1e-8, separation the corner distance.
	m = CollideBoxes(ha, xfA, hb, components.NewTransform(1.5+1e-10, 1.55, 0), 0.1)
	if m.Count != 1 || math.Abs(m.Points[0].Separation-math.Hypot(1e-10, 0.05)) > eps || m.Normal.Sub(components.V(0, 1)).Len() > 1e-8 {
		t.Fatalf("corner just past the side plane: %+v", m)
	}
	// Exactly touching corners: one point, separation 0.
	m = CollideBoxes(ha, xfA, hb, components.NewTransform(1.5, 1.5, 0), 0)
	if m.Count != 1 || m.Points[0].Separation != 0 || !nearV(m.Points[0].P, components.V(1, 1)) {
		t.Fatalf("touching corners: %+v", m)
	}
}

func TestBoxDegenerate(t *testing.T) {
	// Coincident poses and zero-size boxes: finite output, no NaN.
	xf := components.NewTransform(1, 2, 0.3)
	cases := [][2]components.Vec2{
		{{X: 0.5, Y: 0.5}, {X: 0.5, Y: 0.5}},
		{{X: 1, Y: 0.2}, {X: 0.3, Y: 2}},
		{{X: 0, Y: 0}, {X: 0, Y: 0}},
		{{X: 0.5, Y: 0}, {X: 0, Y: 0.5}},
	}
	for _, c := range cases {
		m := CollideBoxes(c[0], xf, c[1], xf, 0)
		if m.Count == 0 || !m.Normal.IsFinite() || math.Abs(m.Normal.Len()-1) > eps {
			t.Fatalf("coincident %v: %+v", c, m)
		}
		for _, p := range m.Points[:m.Count] {
			if !p.P.IsFinite() || math.IsNaN(p.Separation) {
				t.Fatalf("coincident %v: %+v", c, m)
			}
		}
	}
}

// pyramid returns the poses of a Box2D-style pyramid of unit boxes (half
// extent 0.5): row i has rows-i boxes, shifted half a box per row, resting
// exactly on the row below with zero gap, neighbours' side faces touching.
func pyramid(rows int) []components.Transform {
	var xfs []components.Transform
	for i := range rows {
		y := 0.5 + float64(i)
		for j := i; j < rows; j++ {
			x := float64(j) - 0.5*float64(i)
			xfs = append(xfs, components.NewTransform(x, y, 0))
		}
	}
	return xfs
}

func TestPyramidManifolds(t *testing.T) {
	// Every touching pair of an exactly stacked pyramid, in both argument
	// orders: the normal is exactly axis-aligned and A->B, separations are
	// exactly 0, and face contacts have two points. A box on a box of the
	// row below and side neighbours both have two points (shared face
	// segment of length 0.5 or 1).
	h := components.V(0.5, 0.5)
	xfs := pyramid(10)
	var stacked, side int
	for i := range xfs {
		for j := range xfs {
			if i == j {
				continue
			}
			m := CollideBoxes(h, xfs[i], h, xfs[j], 0.005)
			d := xfs[j].P.Sub(xfs[i].P)
			switch {
			case d.Y == 0 && math.Abs(d.X) == 1:
				side++
				if m.Count != 2 || m.Normal != components.V(math.Copysign(1, d.X), 0) {
					t.Fatalf("side neighbours %v -> %v: %+v", xfs[i].P, xfs[j].P, m)
				}
			case math.Abs(d.Y) == 1 && math.Abs(d.X) == 0.5:
				stacked++
				if m.Count != 2 || m.Normal != components.V(0, math.Copysign(1, d.Y)) {
					t.Fatalf("stacked %v -> %v: %+v", xfs[i].P, xfs[j].P, m)
				}
			default:
				if m.Count != 0 {
					t.Fatalf("non-touching %v -> %v: %+v", xfs[i].P, xfs[j].P, m)
				}
				continue
			}
			for _, p := range m.Points[:m.Count] {
				if p.Separation != 0 {
					t.Fatalf("%v -> %v: separation %v, want exactly 0", xfs[i].P, xfs[j].P, p.Separation)
				}
			}
		}
	}
	if stacked != 2*2*45 || side != 2*45 {
		t.Fatalf("counted %d stacked and %d side contacts", stacked, side)
	}
}

func idsOf(m Manifold) [2]uint32 {
	var ids [2]uint32
	for i := 0; i < m.Count; i++ {
		ids[i] = m.Points[i].ID
	}
	return ids
}

func TestFeatureIDStability(t *testing.T) {
	// Perturb resting configurations by up to 1e-4 m and 1e-4 rad (far
	// more than solver jitter on a settled stack, well under the 0.0005 m
	// hysteresis) and require the same Count and the same IDs in the same
	// order, for a box on a wide ground and a pyramid box on two below.
	cases := []struct {
		name     string
		ha, hb   components.Vec2
		xfA, xfB components.Transform
	}{
		{"box on ground", components.V(5, 0.5), components.V(0.5, 0.5), components.NewTransform(0, 0, 0), components.NewTransform(0.3, 1, 0)},
		{"equal boxes stacked", components.V(0.5, 0.5), components.V(0.5, 0.5), components.NewTransform(0, 0.5, 0), components.NewTransform(0, 1.5, 0)},
		{"pyramid left support", components.V(0.5, 0.5), components.V(0.5, 0.5), components.NewTransform(0, 0.5, 0), components.NewTransform(0.5, 1.5, 0)},
		{"pyramid right support", components.V(0.5, 0.5), components.V(0.5, 0.5), components.NewTransform(1, 0.5, 0), components.NewTransform(0.5, 1.5, 0)},
		{"ground below", components.V(0.5, 0.5), components.V(5, 0.5), components.NewTransform(0.3, 1, 0), components.NewTransform(0, 0, 0)},
	}
	const dp, da = 1e-4, 1e-4
	for _, c := range cases {
		base := CollideBoxes(c.ha, c.xfA, c.hb, c.xfB, 0.005)
		if base.Count != 2 {
			t.Fatalf("%s: base manifold %+v", c.name, base)
		}
		for _, dx := range []float64{-dp, 0, dp} {
			for _, dy := range []float64{-dp, 0, dp} {
				for _, dr := range []float64{-da, 0, da} {
					xf := c.xfB
					xf.P = xf.P.Add(components.V(dx, dy))
					xf.R = components.NewRot(xf.Angle() + dr)
					m := CollideBoxes(c.ha, c.xfA, c.hb, xf, 0.005)
					if m.Count != base.Count || idsOf(m) != idsOf(base) {
						t.Fatalf("%s perturbed by (%g, %g, %g rad): ids %v count %d, base %v count %d",
							c.name, dx, dy, dr, idsOf(m), m.Count, idsOf(base), base.Count)
					}
				}
			}
		}
	}
}

func TestCollideInvalidKind(t *testing.T) {
	xf := components.NewTransform(0, 0, 0)
	if m := Collide(components.Shape{}, xf, components.Circle(1), xf, 1); m.Count != 0 {
		t.Fatalf("invalid kind: %+v", m)
	}
}

// TestCollideIntoOverwrites checks that CollideInto replaces every field of
// a used manifold, for each pair of kinds and for touching and separated
// pairs, and gives what Collide gives: the narrow phase reuses its manifold
// slots, and a stale second point or normal would be warm-started.
func TestCollideIntoOverwrites(t *testing.T) {
	r := rand.New(rand.NewPCG(21, 22))
	kinds := [...]components.ShapeKind{components.ShapeCircle, components.ShapeBox}
	stale := Manifold{Normal: components.V(3, 4), Count: 2,
		Points: [2]Point{{P: components.V(5, 6), Separation: 7, ID: 8}, {P: components.V(9, 10), Separation: 11, ID: 12}}}
	var touching, empty int
	for range 2000 {
		a, b := randShape(r, kinds[r.IntN(2)]), randShape(r, kinds[r.IntN(2)])
		xfA, xfB := randPair(r, a, b)
		want := Collide(a, xfA, b, xfB, 0.05)
		got := stale
		CollideInto(&got, a, xfA, b, xfB, 0.05)
		if got != want {
			t.Fatalf("%v at %v, %v at %v: CollideInto gave %+v, Collide %+v", a, xfA, b, xfB, got, want)
		}
		if want.Count > 0 {
			touching++
		} else {
			empty++
		}
	}
	if touching == 0 || empty == 0 {
		t.Fatalf("%d touching and %d empty pairs: the test needs both", touching, empty)
	}
}
