package narrowphase

import (
	"math"
	"testing"

	"github.com/tumble2d/tumble/components"
)

// Analytic circle cases. Tolerance: eps = 1e-12 m (or 1e-12 on unit
// vectors); every quantity here is a few arithmetic operations from exact.
const eps = 1e-12

func near(a, b float64) bool { return math.Abs(a-b) <= eps }

func nearV(a, b components.Vec2) bool { return a.Sub(b).Len() <= eps }

func TestCirclesTouchingAndOverlap(t *testing.T) {
	xfA := components.NewTransform(1, 2, 0.3)
	xfB := components.NewTransform(4, 6, -1) // centre distance 5
	m := CollideCircles(1, xfA, 2, xfB, 0)   // separation 5 - 3 = 2 > margin 0
	if m.Count != 0 {
		t.Fatalf("separated by 2 with margin 0: %+v", m)
	}
	m = CollideCircles(1, xfA, 4.5, xfB, 0) // overlap 0.5
	if m.Count != 1 || !near(m.Points[0].Separation, -0.5) || !nearV(m.Normal, components.V(0.6, 0.8)) {
		t.Fatalf("overlap: %+v", m)
	}
	// Midway: A's surface point is (1,2)+1*(0.6,0.8), B's is (4,6)-4.5*(0.6,0.8).
	want := components.V(1.6+1.3, 2.8+2.4).Scale(0.5)
	if !nearV(m.Points[0].P, want) {
		t.Fatalf("point %v, want %v", m.Points[0].P, want)
	}
	if m.Points[0].ID != 0 {
		t.Fatalf("circle id %d", m.Points[0].ID)
	}
}

func TestCirclesMargin(t *testing.T) {
	xfA := components.NewTransform(0, 0, 0)
	xfB := components.NewTransform(2.05, 0, 0) // gap 0.05
	if m := CollideCircles(1, xfA, 1, xfB, 0.1); m.Count != 1 || !near(m.Points[0].Separation, 0.05) || !nearV(m.Normal, components.V(1, 0)) {
		t.Fatalf("speculative: %+v", m)
	}
	if m := CollideCircles(1, xfA, 1, xfB, 0.04); m.Count != 0 {
		t.Fatalf("beyond margin: %+v", m)
	}
}

func TestCirclesCoincident(t *testing.T) {
	xf := components.NewTransform(3, -1, 0.7)
	m := CollideCircles(0.5, xf, 0.25, xf, 0)
	if m.Count != 1 || m.Normal != components.V(0, 1) || !near(m.Points[0].Separation, -0.75) || !m.Points[0].P.IsFinite() {
		t.Fatalf("coincident: %+v", m)
	}
	// Zero radii, coincident: touching points, still finite.
	m = CollideCircles(0, xf, 0, xf, 0)
	if m.Count != 1 || m.Points[0].Separation != 0 || !m.Points[0].P.IsFinite() {
		t.Fatalf("zero radii: %+v", m)
	}
}

func TestCircleOnBoxFace(t *testing.T) {
	// Box 2 x 1 at the origin, circle of radius 0.25 resting on its top face
	// at x = 0.3: touching, normal +y, point on the face.
	box := components.Box(1, 0.5)
	circle := components.Circle(0.25)
	xfBox := components.NewTransform(0, 0, 0)
	xfC := components.NewTransform(0.3, 0.75, 0)
	m := Collide(box, xfBox, circle, xfC, 0)
	if m.Count != 1 || !nearV(m.Normal, components.V(0, 1)) || !near(m.Points[0].Separation, 0) || !nearV(m.Points[0].P, components.V(0.3, 0.5)) {
		t.Fatalf("box-circle: %+v", m)
	}
	// Same scene rotated by 1 rad about (2, 3): rotated normal.
	rot := components.NewRot(1)
	pivot := components.V(2, 3)
	xfBox2 := components.Transform{P: rot.Rotate(xfBox.P).Add(pivot), R: rot}
	xfC2 := components.Transform{P: rot.Rotate(xfC.P).Add(pivot), R: rot}
	m = Collide(box, xfBox2, circle, xfC2, 0)
	if m.Count != 1 || !nearV(m.Normal, rot.Y()) || !near(m.Points[0].Separation, 0) || !nearV(m.Points[0].P, rot.Rotate(components.V(0.3, 0.5)).Add(pivot)) {
		t.Fatalf("rotated box-circle: %+v", m)
	}
	// Circle first: the normal points from the circle to the box.
	w := Collide(circle, xfC, box, xfBox, 0)
	if w.Count != 1 || !nearV(w.Normal, components.V(0, -1)) || !near(w.Points[0].Separation, 0) || !nearV(w.Points[0].P, components.V(0.3, 0.5)) {
		t.Fatalf("circle-box: %+v", w)
	}
}

func TestCircleBoxCornerAndInside(t *testing.T) {
	box := components.V(1, 0.5)
	xf := components.NewTransform(0, 0, 0)
	// Near the (1, 0.5) corner, 0.3-0.4-0.5 triangle: distance 0.5, r 0.4.
	m := CollideBoxCircle(box, xf, 0.4, components.NewTransform(1.3, 0.9, 0), 0.2)
	if m.Count != 1 || !near(m.Points[0].Separation, 0.1) || !nearV(m.Normal, components.V(0.6, 0.8)) ||
		!nearV(m.Points[0].P, components.V(1+0.6*0.05, 0.5+0.8*0.05)) {
		t.Fatalf("corner: %+v", m)
	}
	// Centre inside, 0.1 below the top face and 0.7 from the right: top face
	// is the least penetration; separation -(0.1 + r).
	m = CollideBoxCircle(box, xf, 0.2, components.NewTransform(0.3, 0.4, 0), 0)
	if m.Count != 1 || !near(m.Points[0].Separation, -0.3) || !nearV(m.Normal, components.V(0, 1)) ||
		!nearV(m.Points[0].P, components.V(0.3, 0.5-0.15)) {
		t.Fatalf("inside: %+v", m)
	}
	// Centre exactly at the box centre: a face normal, finite.
	m = CollideBoxCircle(box, xf, 0.2, xf, 0)
	if m.Count != 1 || !near(m.Points[0].Separation, -0.7) || !nearV(m.Normal, components.V(0, 1)) || !m.Points[0].P.IsFinite() {
		t.Fatalf("centred: %+v", m)
	}
	// Degenerate box and circle, coincident.
	m = CollideBoxCircle(components.V(0, 0), xf, 0, xf, 0)
	if m.Count != 1 || m.Points[0].Separation != 0 || !m.Normal.IsFinite() || !m.Points[0].P.IsFinite() {
		t.Fatalf("degenerate: %+v", m)
	}
}

func TestBoxCircleMargin(t *testing.T) {
	box := components.V(1, 0.5)
	xf := components.NewTransform(0, 0, 0.5)
	c := components.Transform{P: xf.Apply(components.V(1.3, 0)), R: components.Identity} // 0.3 outside the +x face
	if m := CollideBoxCircle(box, xf, 0.2, c, 0.15); m.Count != 1 || !near(m.Points[0].Separation, 0.1) || !nearV(m.Normal, xf.R.X()) {
		t.Fatalf("speculative: %+v", m)
	}
	if m := CollideBoxCircle(box, xf, 0.2, c, 0.05); m.Count != 0 {
		t.Fatalf("beyond margin: %+v", m)
	}
}
