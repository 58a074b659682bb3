package narrowphase

import (
	"math"

	"github.com/tumble2d/tumble/components"
)

// AimCircles turns the normal of m, a speculative manifold of a circle of
// radius ra centred at pa and one of radius rb at pb (CollideCircles), to the
// line of centres at the moment the two touch if B keeps moving at dv
// relative to A, or, if they pass each other, at the moment they come
// closest within the step h. A manifold already touching, or of circles not
// approaching, is left alone, and the offsets are then zero.
//
// The speculative contact is taken where the circles still stand apart, and
// for a glancing approach the line of centres there is not the one at
// impact: at an offset of 0.9 diameters and 20 m/s, 30 degrees off in a 60
// Hz step, and the struck circle left that far off its course. With d =
// pb - pa and R = ra + rb, the circles touch at the smallest t with
// |d + dv t| = R, a root of |dv|^2 t^2 + 2 (d.dv) t + |d|^2 - R^2 = 0, and
// n = (d + dv t)/R. The separation along n now is s = d.n - R, and the gap
// left at t is s + t (dv.n) = |d + dv t| - R = 0: a solver letting s close at
// dv.n stops the circles where they touch and pushes along the normal of
// the impact. The root is used even when it lies beyond the step: a solver
// predicting the next substep may act on a contact that closes just after
// the step, and it should then push along the impact's normal.
//
// When the quadratic has no root the circles pass each other on straight
// paths. They keep a contact, along the line of centres where they come
// closest within the step, t = min(-(d.dv)/|dv|^2, h): emptied, the contact
// let circles sink into each other when something else bent their paths
// within the step (a ball grazing a static one under gravity went 1.7 mm
// in, and in a dense pile overlaps past 5 cm were 15 times as frequent).
// If they come closest within the step, dv.n = 0 there and the contact
// holds them apart without pushing; otherwise the gap along n at h is
// |d + dv h| - R > 0. Along the start normal, where they approach at up to
// their full speed, the contact bounced circles whose paths miss by 5 mm: a
// ball passing another at 20 m/s knocked it away at 15.8 m/s (e = 1). The
// closest approach is not taken beyond the step, where its gap, the miss
// distance, would hold circles still far apart.
//
// The point stays midway between the surfaces along n, at pa + (ra + s/2)
// n, but that line misses pb now. A solver must take the lever arms from
// each circle's own surface point, pa + ra n = point + offA and pb - rb n =
// point + offB, so that the impulse passes through both centres and
// friction acts at the radius. From the shared point, the impulse spun the
// struck circle, and a glancing hit at e = 1 kept only two thirds of the
// normal speed.
func AimCircles(m *Manifold, ra float64, pa components.Vec2, rb float64, pb components.Vec2, dv components.Vec2, h float64) (offA, offB components.Vec2) {
	if m.Count == 0 || !(m.Points[0].Separation > 0) {
		return offA, offB
	}
	d := pb.Sub(pa)
	r := ra + rb
	a, bh := dv.LenSq(), d.Dot(dv)
	if !(a > 0) || !(bh < 0) {
		return offA, offB // not approaching: the gap along d opens
	}
	t, ok := firstTouch(d, dv, r)
	if !ok {
		t = min(-bh/a, h) // they pass each other (see above)
	}
	at := d.MulAdd(t, dv)
	l := at.Len()
	if !(l > 0) {
		return offA, offB
	}
	n := at.Scale(1 / l)
	s := d.Dot(n) - r
	p := pa.MulAdd(ra+0.5*s, n)
	m.Normal = n
	m.Points[0] = Point{P: p, Separation: s}
	return n.Scale(-0.5 * s), pb.MulAdd(-rb, n).Sub(p)
}

// AimBoxCircle is AimCircles for a box of half extents half at pose xfA
// and a circle of radius r centred at pc, with m the speculative manifold
// of CollideBoxCircle (normal from the box to the circle) and dv the
// circle's velocity relative to the box. The box's turn within the step is
// left out: the circle's centre moves on a straight line in the box's frame.
//
// The start normal points from the box's closest feature to the circle,
// but a circle that will strike a corner is not always nearest that corner
// now, nor one that will strike a face nearest that face: a ball coming
// down steeply past a corner took the corner's normal and was thrown
// sideways. The centre's path first meets the box grown by r (the
// Minkowski sum, whose outline is the four faces pushed out by r and four
// corner arcs of radius r) at the impact. On a face, n is the face's normal
// and the box's point is the centre's foot on it; on an arc, n points from
// the corner through the centre, and the box's point is the corner. The gap
// along n now, s = (c - q).n - r with q the box's point, is the box's
// support gap along n and closes to 0 exactly at the impact. A path that
// misses the grown box takes, as passing circles do, the normal where the
// centre comes closest to the box within the step h (the distance from a
// point on a line to a convex set is convex in t, so a golden-section
// search finds it); a circle moving away from the box keeps the start
// normal.
//
// The point is put at the box's point plus s/2 along n; offA and offB lead
// from it to the box's point and to the circle's, pc - r n, from which a
// solver must take the lever arms.
func AimBoxCircle(m *Manifold, half components.Vec2, xfA components.Transform, r float64, pc components.Vec2, dv components.Vec2, h float64) (offA, offB components.Vec2) {
	if m.Count == 0 || !(m.Points[0].Separation > 0) {
		return offA, offB
	}
	c := xfA.InvApply(pc)
	u := xfA.R.InvRotate(dv)
	best := math.Inf(1)
	var n, q components.Vec2
	// Faces: the plane x = sx (hx + r) (or y), entered from outside.
	face := func(cx, ux, cy, uy, hx, hy float64, axis components.Vec2) {
		for _, sx := range [2]float64{1, -1} {
			if !(sx*ux < 0) || !(sx*cx > hx+r) {
				continue
			}
			t := (sx*(hx+r) - cx) / ux
			if y := cy + uy*t; t < best && math.Abs(y) <= hy {
				best = t
				n = axis.Scale(sx)
				q = axis.Scale(sx * hx).Add(components.Vec2{X: axis.Y, Y: axis.X}.Scale(y))
			}
		}
	}
	face(c.X, u.X, c.Y, u.Y, half.X, half.Y, components.Vec2{X: 1})
	face(c.Y, u.Y, c.X, u.X, half.Y, half.X, components.Vec2{Y: 1})
	// Corner arcs: the circle of radius r about each corner, entered from
	// outside, at a point beyond both faces of that corner.
	for _, sx := range [2]float64{1, -1} {
		for _, sy := range [2]float64{1, -1} {
			k := components.Vec2{X: sx * half.X, Y: sy * half.Y}
			w := c.Sub(k)
			if !(w.Dot(u) < 0) || !(w.LenSq()-r*r > 0) {
				continue
			}
			t, ok := firstTouch(w, u, r)
			if !ok {
				continue
			}
			p := c.MulAdd(t, u)
			if t < best && sx*p.X >= half.X && sy*p.Y >= half.Y {
				best = t
				n = p.Sub(k).Scale(1 / r)
				q = k
			}
		}
	}
	if math.IsInf(best, 1) {
		// The path misses the grown box: aim where it comes closest.
		dist := func(t float64) float64 { p := c.MulAdd(t, u); return p.Sub(clampToBox(p, half)).Len() }
		if !(u.Dot(c.Sub(clampToBox(c, half))) < 0) {
			return offA, offB // moving away: the gap opens
		}
		p := c.MulAdd(goldenMin(dist, h, 40), u)
		q = clampToBox(p, half)
		w := p.Sub(q)
		l := w.Len()
		if !(l > 0) {
			return offA, offB
		}
		n = w.Scale(1 / l)
	}
	s := c.Sub(q).Dot(n) - r
	nw := xfA.R.Rotate(n)
	qw := xfA.Apply(q)
	p := qw.MulAdd(0.5*s, nw)
	m.Normal = nw
	m.Points[0] = Point{P: p, Separation: s}
	return qw.Sub(p), pc.MulAdd(-r, nw).Sub(p)
}

// firstTouch returns the first time t at which a point at d, moving at v,
// comes within r of the origin: the smaller root of |v|^2 t^2 + 2 (d.v) t +
// |d|^2 - r^2 = 0. ok is false when v is zero or the path misses the circle.
// Callers check that the point is outside and approaching, so t >= 0.
func firstTouch(d, v components.Vec2, r float64) (t float64, ok bool) {
	a, bh := v.LenSq(), d.Dot(v) // bh: half the linear coefficient
	disc := bh*bh - a*(d.LenSq()-r*r)
	if !(a > 0) || !(disc >= 0) {
		return 0, false
	}
	return (-bh - math.Sqrt(disc)) / a, true
}

// AimBoxes is AimCircles for a box of half extents ha at pose xfA and a box
// of half extents hb at pose xfB, with m their speculative manifold
// (CollideBoxes, margin its margin) and dv B's velocity relative to A. The
// boxes' turns within the step are left out: B moves on a straight line in
// A's frame. h is the horizon: the step, or as far past it as the solver
// predicts (the engine passes the step and one substep). It returns the
// shift of B's centre (offB; offA is zero) from which a solver must take
// B's lever arms.
//
// The start manifold takes the closest features now, and a box whose path
// misses another's corner is often nearest that corner first: a box falling
// at 5 m/s past the corner of a ledge, 5 mm clear of it, got a speculative
// contact along the corner-to-corner normal, stopped on it one step and left
// at half its speed, spinning at 6.6 rad/s; at 20 m/s it spun at 28 rad/s.
// Box2D v3 does the same within its fixed 4 cm margin; the margin here
// grows with the closing speed, so every fast pass found it.
//
// Under a translation the boxes first touch where the separating-axis test
// over the four face normals (two of each box) first finds no gap: each
// axis gives the interval of t in which the projections overlap, and the
// boxes overlap from the latest start to the earliest end of those
// intervals. The manifold is built at that moment, B shifted by dv t, so
// its normal is the face normal of the impact and its separations are ~0
// (up to the kernel's reference-face tolerance); each separation is then
// moved back to now by subtracting t (dv.n), so the solver closes it at dv.n
// and stops the boxes where they touch. Boxes whose intervals never meet
// pass each other and take the manifold where they come closest within the
// step h, found by golden-section search on the signed distance (convex in t
// for convex shapes under a translation); there the gap along the normal no
// longer closes, or it is still open at h. An impact after the step is taken
// as a pass: the distance falls all through the step, so the boxes are
// closest at h. Unlike a circle's, the box's lever arms move with the aimed
// time, so it is never taken beyond h: a resting box 0.1 mm above another,
// creeping sideways at 1 mm/s while the gap closed at 1 um/s, would have
// taken its arms 0.1 m away.
//
// The reference face is not always CollideBoxes' (see the body). Where
// two faces' gaps cross at the closest
// approach (the boxes slide past each other, one face's gap closing while
// the other's opens), no single face's gap stays open through the step;
// the one whose gap falls least is kept, and may still stop the boxes for
// a moment. Such crossings are under 1 % of random passing pairs
// (TestAimBoxes).
//
// The start manifold is kept when its gap opens, or when it stays open
// through this step and the next: the solver looks one substep past the
// step (a box falling past a ledge 5 mm clear, whose gap along the start
// normal closed to 0.7 mm at the end of the step, was still kicked aside).
// So is one whose normal is already the entry face's, when its points
// would slide under a tenth of the linear slop before the touch. Per step,
// large_pyramid aims 11 of its 13 400 contacts, smash 287 and tumbler 314.
func AimBoxes(m *Manifold, ha components.Vec2, xfA components.Transform, hb components.Vec2, xfB components.Transform,
	dv components.Vec2, h, margin float64) (offB components.Vec2) {
	if m.Count == 0 || !(m.Points[0].Separation > 0) || m.Count == 2 && !(m.Points[1].Separation > 0) {
		return offB
	}
	closing := -2 * h * dv.Dot(m.Normal)
	if !(m.Points[0].Separation < closing) && !(m.Count == 2 && m.Points[1].Separation < closing) {
		return offB // the start contact stays open through this step and the next (or the gap opens)
	}
	d := xfB.P.Sub(xfA.P)
	// On an axis u the two boxes project to half widths whose sum is
	// e = |ha| . |R_A^T u| + |hb| . |R_B^T u|. For the boxes' own axes the
	// dot products are 1, 0 and the cosine and sine of the turn between them.
	rel := xfA.R.InvMul(xfB.R)
	co, si := math.Abs(rel.C), math.Abs(rel.S)
	axes := [4]components.Vec2{xfA.R.X(), xfA.R.Y(), xfB.R.X(), xfB.R.Y()}
	ext := [4]float64{ha.X + hb.X*co + hb.Y*si, ha.Y + hb.X*si + hb.Y*co, hb.X + ha.X*co + ha.Y*si, hb.Y + ha.X*si + ha.Y*co}
	enter, exit := math.Inf(-1), math.Inf(1)
	entry, side := 0, 0.0 // the axis whose gap closes last, and the side B comes from
	for k, u := range axes {
		e := ext[k]
		c, rate := d.Dot(u), dv.Dot(u)
		if rate == 0 {
			if c > e || c < -e {
				enter, exit = math.Inf(1), math.Inf(-1) // a gap on this axis for ever
			}
			continue
		}
		t0, t1 := (-e-c)/rate, (e-c)/rate
		if t0 > t1 {
			t0, t1 = t1, t0
		}
		if t0 > enter {
			enter, entry, side = t0, k, c
		}
		if t1 < exit {
			exit = t1
		}
	}
	want := axes[entry]
	if side < 0 {
		want = want.Neg()
	}
	if enter <= exit && enter > 0 && m.Normal.Dot(want) >= 0.9998 {
		// The start normal is already the entry face's (within a
		// degree): only the points would move, by the slide along the
		// face until the touch (or the end of the step). Under a tenth
		// of the linear slop that changes nothing that matters, and
		// most aimed pairs of a pile are such (tumbler: 300 of 400).
		slide := dv.Sub(want.Scale(dv.Dot(want))).Len() * min(enter, h)
		if slide < 0.1*LinearSlop {
			return offB
		}
	}
	var t float64
	impact := false
	switch {
	case enter <= exit && enter > 0 && enter <= h:
		t, impact = enter, true
	case enter <= exit && enter > h:
		t = h // the distance falls all through the step: closest at its end
	default:
		t = closestApproach(ha, xfA, hb, xfB, dv, h)
	}
	xf := xfB
	xf.P = xfB.P.MulAdd(t, dv)
	// CollideBoxes keeps A's face while B's is within referenceTolerance of
	// it, so that resting pairs keep their feature ids and warm starts. At a
	// touch or a close pass two faces often are that close, and the face it
	// kept could be receding, its gap carried back to the start of the step
	// already closed (by 2 cm for a box grazing another's corner). So its
	// manifold is kept only where it agrees: at an impact, a normal within a
	// degree of the entry face's (a stricter test flipped the ids of resting
	// pairs, and a woken pile moved at 6.8 mm/s where it moved under 5); at
	// a pass, a gap that stays open through the step. Otherwise the entry
	// face is used, or the best face of either box, whichever gap falls
	// least.
	var am Manifold
	collideBoxes(&am, ha, xfA, hb, xf, margin)
	switch {
	case impact && (am.Count == 0 || am.Normal.Dot(want) < 0.9998 || !(dv.Dot(am.Normal) < 0)):
		// Not the entry face, or one within a degree of it (a resting
		// box's face and the one under it differ by its tiny turn).
		am = Manifold{}
		boxManifoldOn(&am, ha, xfA, hb, xf, entry >= 2, entryFace(entry, side), true, margin)
	case !impact && lowestGap(&am, dv, t, h) < 0:
		// Where the distance has a smooth minimum, the farther apart face
		// (or the corners' normal) has dv.n = 0 and both candidates agree.
		// Where two faces' gaps cross (a V: one closing, one opening as the
		// boxes slide past each other), neither line stays open all
		// through the step; the one whose lowest point within it is higher
		// is kept.
		faceA, _ := maxSeparation(ha, hb, relative(xfA, xf))
		faceB, _ := maxSeparation(hb, ha, relative(xf, xfA))
		for k := range 2 {
			var mc Manifold
			boxManifoldOn(&mc, ha, xfA, hb, xf, k == 1, [2]int{faceA, faceB}[k], false, margin)
			if lowestGap(&mc, dv, t, h) > lowestGap(&am, dv, t, h) {
				am = mc
			}
		}
	}
	if am.Count == 0 {
		return offB
	}
	shift := t * dv.Dot(am.Normal)
	for i := 0; i < am.Count; i++ {
		am.Points[i].Separation -= shift
	}
	*m = am
	return dv.Scale(-t)
}

// lowestGap returns the smallest gap within [0, h] that a solver predicts
// from manifold m, built at time t of a motion at dv: the smallest
// separation, carried along the normal at dv.n (-Inf for an empty m).
func lowestGap(m *Manifold, dv components.Vec2, t, h float64) float64 {
	if m.Count == 0 {
		return math.Inf(-1)
	}
	s := m.Points[0].Separation
	if m.Count == 2 {
		s = min(s, m.Points[1].Separation)
	}
	vn := dv.Dot(m.Normal)
	return s + min(-t*vn, (h-t)*vn)
}

// entryFace returns the face, of A for axes 0 (A's x) and 1 (A's y) or of
// B for axes 2 and 3, that faces the other box along axis k, when B's
// centre projects to side (its sign) from A's along that axis. Faces are
// numbered as in boxVertex: 0 -y, 1 +x, 2 +y, 3 -x.
func entryFace(k int, side float64) int {
	onPlus := side > 0 // B lies on the + side of the axis
	if k >= 2 {
		onPlus = !onPlus // A lies on the - side of B's axis
	}
	switch {
	case k&1 == 0 && onPlus:
		return 1
	case k&1 == 0:
		return 3
	case onPlus:
		return 2
	}
	return 0
}

// faceSeparation returns the separation of face i of the box h (in its own
// frame) from the box of half extents ho at pose rel in that frame: the
// term of maxSeparation for that face.
func faceSeparation(h, ho components.Vec2, rel components.Transform, i int) float64 {
	c, s := math.Abs(rel.R.C), math.Abs(rel.R.S)
	ex := c*ho.X + s*ho.Y
	ey := s*ho.X + c*ho.Y
	switch i {
	case 0:
		return -rel.P.Y - ey - h.Y
	case 1:
		return rel.P.X - ex - h.X
	case 2:
		return rel.P.Y - ey - h.Y
	}
	return -rel.P.X - ex - h.X
}

// boxManifoldOn builds into m (zero) the manifold of boxes ha at xfA and hb
// at xfB with the given reference face, of B if onB, as collideBoxes would
// with that choice. At a touch (touching) the face's separation is taken
// as at most 0, so that round-off cannot send a corner touch down the path
// of separated corners, whose normal is undefined there.
func boxManifoldOn(m *Manifold, ha components.Vec2, xfA components.Transform, hb components.Vec2, xfB components.Transform,
	onB bool, face int, touching bool, margin float64) {
	href, xfRef, ho, rel := ha, xfA, hb, relative(xfA, xfB)
	if onB {
		href, xfRef, ho, rel = hb, xfB, ha, relative(xfB, xfA)
	}
	sep := faceSeparation(href, ho, rel, face)
	if touching {
		sep = min(sep, 0)
	}
	faceManifold(m, href, xfRef, ho, rel, face, sep, margin, onB)
}

// closestApproach returns the time in [0, h] at which a box of half extents
// hb, starting at pose xfB and moving at dv, comes closest to a box of half
// extents ha at pose xfA. The signed distance is taken from the manifold's
// smallest separation, which is the distance for separated boxes (see
// CollideBoxes), with a margin that admits any pair.
func closestApproach(ha components.Vec2, xfA components.Transform, hb components.Vec2, xfB components.Transform,
	dv components.Vec2, h float64) float64 {
	dist := func(t float64) float64 {
		var m Manifold
		xf := xfB
		xf.P = xfB.P.MulAdd(t, dv)
		collideBoxes(&m, ha, xfA, hb, xf, math.Inf(1))
		s := math.Inf(1)
		for i := 0; i < m.Count; i++ {
			s = min(s, m.Points[i].Separation)
		}
		return s
	}
	return goldenMin(dist, h, 20) // the bracket shrinks to 7e-5 of h
}

// goldenMin returns the middle of the bracket that iters steps of a
// golden-section search leave around the minimum of f, convex on [0, h].
func goldenMin(f func(float64) float64, h float64, iters int) float64 {
	lo, hi := 0.0, h
	const g = 0.6180339887498949 // (sqrt 5 - 1)/2
	x1, x2 := hi-g*(hi-lo), lo+g*(hi-lo)
	f1, f2 := f(x1), f(x2)
	for range iters {
		if f1 <= f2 {
			hi, x2, f2 = x2, x1, f1
			x1 = hi - g*(hi-lo)
			f1 = f(x1)
		} else {
			lo, x1, f1 = x1, x2, f2
			x2 = lo + g*(hi-lo)
			f2 = f(x2)
		}
	}
	return 0.5 * (lo + hi)
}
