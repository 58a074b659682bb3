package bench

import (
	"fmt"
	"math"

	arche "github.com/mlange-42/arche/ecs"
	"github.com/mlange-42/arche/generic"
	"github.com/tumble2d/tumble/components"
	"github.com/tumble2d/tumble/ecs"
)

// create spawns defs in one batch call and wraps them in a Built.
func create(w *arche.World, defs []ecs.BodyDef) (*Built, error) {
	ents, err := ecs.NewBodies(w, defs, make([]arche.Entity, 0, len(defs)))
	if err != nil {
		return nil, err
	}
	return &Built{Bodies: ents}, nil
}

// ---- pyramids ----

// pyramidHealth checks that each top box ends within 1 m of its start
// height; the sag is start minus end height (positive: lower).
func pyramidHealth(b *Built, tops []int, startY []float64) func(w *arche.World) Health {
	return func(w *arche.World) Health {
		ps := newPoses(w)
		nan := countNaN(w, b.Bodies)
		maxSag, sumSag, bad := 0.0, 0.0, 0
		for k, i := range tops {
			t, ok := ps.get(b.Bodies[i])
			sag := math.Inf(1)
			if ok && finiteTransform(t) {
				sag = startY[k] - t.P.Y
			}
			if !(math.Abs(sag) <= 1) {
				bad++
			}
			if math.Abs(sag) > math.Abs(maxSag) {
				maxSag = sag
			}
			sumSag += sag
		}
		h := Health{OK: bad == 0 && nan == 0, Values: []Value{
			{"max_sag_m", maxSag}, {"mean_sag_m", sumSag / float64(len(tops))},
			{"tops_off", float64(bad)}, {"pyramids", float64(len(tops))}, {"nan_bodies", float64(nan)}}}
		if len(tops) == 1 {
			h.Message = fmt.Sprintf("top box sag %s m (limit 1 m)", f(maxSag))
		} else {
			h.Message = fmt.Sprintf("%d of %d pyramid tops within 1 m; worst sag %s m, mean %s m",
				len(tops)-bad, len(tops), f(maxSag), f(sumSag/float64(len(tops))))
		}
		if nan > 0 {
			h.Message += fmt.Sprintf("; %d bodies NaN", nan)
		}
		return h
	}
}

// buildLargePyramid: ground box 100 x 1 at (0, -1); row i = 0..99, j = i..99:
// box 0.5 x 0.5 at x = (i + 1) * 0.5 + (j - i) - 50, y = i + 0.5.
func buildLargePyramid(w *arche.World, _ float64) (*Built, error) {
	const base = 100
	defs := make([]ecs.BodyDef, 0, 1+base*(base+1)/2)
	defs = append(defs, staticBox(100, 1, 0, -1))
	for i := 0; i < base; i++ {
		for j := i; j < base; j++ {
			defs = append(defs, dynBox(0.5, 0.5, float64(i+1)*0.5+float64(j-i)-50, float64(i)+0.5))
		}
	}
	b, err := create(w, defs)
	if err != nil {
		return nil, err
	}
	top := len(defs) - 1
	b.health = pyramidHealth(b, []int{top}, []float64{defs[top].Position.Y})
	return b, nil
}

// buildManyPyramids: 20 grounds (static boxes 110 x 0.05 at (0, 11r - 0.05)),
// then pyramids row by row, column by column: centreX = -110 + 11c + 1,
// baseY = 11r, box (i, j) at x = (i + 1) * 0.5 + (j - i) + centreX - 0.5,
// y = (2i + 1) * 0.5 + baseY.
func buildManyPyramids(w *arche.World, _ float64) (*Built, error) {
	const rows, cols, base = 20, 20, 10
	defs := make([]ecs.BodyDef, 0, rows+rows*cols*base*(base+1)/2)
	for r := 0; r < rows; r++ {
		defs = append(defs, staticBox(110, 0.05, 0, 11*float64(r)-0.05))
	}
	var tops []int
	var startY []float64
	for r := 0; r < rows; r++ {
		baseY := 11 * float64(r)
		for c := 0; c < cols; c++ {
			centreX := -110 + 11*float64(c) + 1
			for i := 0; i < base; i++ {
				for j := i; j < base; j++ {
					defs = append(defs, dynBox(0.5, 0.5, float64(i+1)*0.5+float64(j-i)+centreX-0.5,
						float64(2*i+1)*0.5+baseY))
				}
			}
			tops = append(tops, len(defs)-1)
			startY = append(startY, defs[len(defs)-1].Position.Y)
		}
	}
	b, err := create(w, defs)
	if err != nil {
		return nil, err
	}
	b.health = pyramidHealth(b, tops, startY)
	return b, nil
}

// ---- smash ----

// buildSmash: a 4 x 4 box of density 8 at (-20, 0) moving at (40, 0), then
// 120 columns (outer loop, i) x 80 rows (inner loop, j) of sleeping boxes
// 0.2 x 0.2 at x = 30 + 0.4i, y = 0.4 (j - 40), as Box2D's CreateSmash.
func buildSmash(w *arche.World, _ float64) (*Built, error) {
	const cols, rows = 120, 80
	defs := make([]ecs.BodyDef, 0, 1+cols*rows)
	big := dynBox(4, 4, -20, 0)
	big.Density = 8
	big.LinearVelocity = components.Vec2{X: 40}
	defs = append(defs, big)
	for i := 0; i < cols; i++ {
		for j := 0; j < rows; j++ {
			d := dynBox(0.2, 0.2, 30+0.4*float64(i), 0.4*float64(j-rows/2))
			d.StartAsleep = true
			defs = append(defs, d)
		}
	}
	b, err := create(w, defs)
	if err != nil {
		return nil, err
	}
	m, _ := big.Shape.MassData(big.Density)
	p0 := big.LinearVelocity.Scale(m)
	b.health = func(w *arche.World) Health {
		nan := countNaN(w, b.Bodies)
		bodies := generic.NewMap3[components.Velocity, components.Mass, components.Body](w)
		var p components.Vec2
		for _, e := range b.Bodies {
			if !w.Alive(e) {
				continue
			}
			v, ms, bd := bodies.Get(e)
			if bd.Type == components.Dynamic {
				p = p.Add(v.Lin.Scale(ms.Mass))
			}
		}
		rel := p.Sub(p0).Len() / p0.Len()
		h := Health{OK: nan == 0 && rel <= 0.01, Values: []Value{
			{"momentum_x", p.X}, {"momentum_y", p.Y}, {"momentum_start_x", p0.X},
			{"momentum_rel_error", rel}, {"nan_bodies", float64(nan)}}}
		h.Message = fmt.Sprintf("momentum (%s, %s) kg m/s vs start (%s, 0): error %s%% (limit 1%%); %d NaN",
			f(p.X), f(p.Y), f(p0.X), f(100*rel), nan)
		return h
	}
	return b, nil
}

// ---- tumbler ----

// Tumbler drum: centre and angular velocity (25 deg/s).
var (
	drumCentre = components.Vec2{Y: 10}
	drumOmega  = 25 * math.Pi / 180
)

// buildTumbler: four kinematic walls (0.5 x 10 at (+-10, 10), then 10 x 0.5
// at (0, 20) and (0, 0)), then 45 x 45 boxes 0.125 x 0.125, rows (i) outer,
// at x = -9 + 0.4j, y = 1 + 0.4i.
//
// Every tick the hook gives each wall the angular velocity omega and the
// linear velocity that carries its centre to c + R(omega t') (p0 - c) at the
// end of the tick, t' = (tick + 1) dt: the chord of the circle, which is
// omega x (p - c) to first order in omega dt (relative difference 2e-6) but
// does not let the walls drift outwards over the run, as integrating the
// tangent velocity would (by about 2 % of the radius in 750 ticks).
func buildTumbler(w *arche.World, _ float64) (*Built, error) {
	const grid, h = 45, 0.125
	walls := []ecs.BodyDef{
		staticBox(0.5, 10, 10, 10), staticBox(0.5, 10, -10, 10),
		staticBox(10, 0.5, 0, 20), staticBox(10, 0.5, 0, 0),
	}
	defs := make([]ecs.BodyDef, 0, len(walls)+grid*grid)
	for _, d := range walls {
		d.Type = components.Kinematic
		d.LinearVelocity = components.CrossSV(drumOmega, d.Position.Sub(drumCentre))
		d.AngularVelocity = drumOmega
		defs = append(defs, d)
	}
	for i := 0; i < grid; i++ {
		for j := 0; j < grid; j++ {
			defs = append(defs, dynBox(h, h, -9+0.4*float64(j), 1+0.4*float64(i)))
		}
	}
	b, err := create(w, defs)
	if err != nil {
		return nil, err
	}
	var offsets [4]components.Vec2
	for k := range offsets {
		offsets[k] = defs[k].Position.Sub(drumCentre)
	}
	var vel generic.Map[components.Velocity]
	var tm generic.Map[components.Transform]
	bound := false
	b.tick = func(w *arche.World, tick int) error {
		if !bound {
			vel, tm, bound = generic.NewMap[components.Velocity](w), generic.NewMap[components.Transform](w), true
		}
		dt := b.Dt
		r := components.NewRot(drumOmega * float64(tick+1) * dt)
		for k, e := range b.Bodies[:4] {
			target := drumCentre.Add(r.Rotate(offsets[k]))
			p := tm.Get(e).P
			*vel.Get(e) = components.Velocity{Lin: target.Sub(p).Scale(1 / dt), Ang: drumOmega}
		}
		return nil
	}
	inner := 9.5
	limit := inner - h + h*math.Sqrt2
	b.health = func(w *arche.World) Health {
		ps := newPoses(w)
		wall, _ := ps.get(b.Bodies[0])
		nan, out, worst := 0, 0, 0.0
		for _, e := range b.Bodies[4:] {
			t, ok := ps.get(e)
			if !ok || !finiteTransform(t) {
				nan++
				continue
			}
			l := wall.R.InvRotate(t.P.Sub(drumCentre))
			m := math.Max(math.Abs(l.X), math.Abs(l.Y))
			worst = math.Max(worst, m)
			if m > limit {
				out++
			}
		}
		angle := math.Mod(drumOmega*float64(b.Ticks)*b.Dt, 2*math.Pi) * 180 / math.Pi
		h := Health{OK: nan == 0 && out == 0, Values: []Value{
			{"boxes_outside", float64(out)}, {"max_centre_offset_m", worst}, {"limit_m", limit},
			{"drum_angle_deg", angle}, {"nan_bodies", float64(nan)}}}
		h.Message = fmt.Sprintf("%d of %d boxes outside the drum; farthest centre %s m from the axis line (limit %s m); drum at %s deg",
			out, len(b.Bodies)-4, f(worst), f(limit), f(angle))
		if nan > 0 {
			h.Message += fmt.Sprintf("; %d NaN", nan)
		}
		return h
	}
	return b, nil
}

// ---- open box: circle_rain and mixed_pile ----

// openBox is the container and spawn grid of circle_rain and mixed_pile at
// scale F.
type openBox struct {
	n       int     // bodies
	cols    int     // grid columns
	wallX   float64 // wall centres at +-wallX
	wallTop float64 // top of the walls
	x0      float64 // x of column 0 on even rows
}

const (
	gridPitch  = 1.05
	gridJitter = 0.02
)

func newOpenBox(scale float64) (openBox, error) {
	s := math.Sqrt(scale)
	b := openBox{n: int(math.Round(10000 * scale)), wallX: 50.5 * s}
	if b.n < 1 {
		return b, fmt.Errorf("scale %v gives no bodies", scale)
	}
	// Columns that fit between the inner faces of the walls: the grid spans
	// (cols-1)*pitch + pitch/2 between centres, plus a body (1 m) and jitter.
	inner := 2 * (b.wallX - 0.5)
	fit := int(math.Floor((inner-1-2*gridJitter-gridPitch/2)/gridPitch)) + 1
	b.cols = min(int(math.Round(92*s)), fit)
	if b.cols < 1 {
		return b, fmt.Errorf("scale %v leaves no room between the walls", scale)
	}
	rows := (b.n + b.cols - 1) / b.cols
	b.wallTop = math.Max(120*s, 1+gridPitch*float64(rows-1)+5)
	b.x0 = -(float64(b.cols-1)*gridPitch + gridPitch/2) / 2
	return b, nil
}

// statics returns floor, left wall, right wall.
func (o openBox) statics() []ecs.BodyDef {
	s := o.wallX / 50.5
	return []ecs.BodyDef{
		staticBox(51*s, 0.5, 0, -0.5),
		staticBox(0.5, o.wallTop/2, -o.wallX, o.wallTop/2),
		staticBox(0.5, o.wallTop/2, o.wallX, o.wallTop/2),
	}
}

// pos returns the spawn centre of body k, drawing its jitter from rng.
func (o openBox) pos(k int, rng *SplitMix64) components.Vec2 {
	row, col := k/o.cols, k%o.cols
	x := o.x0 + gridPitch*float64(col)
	if row%2 == 1 {
		x += gridPitch / 2
	}
	x += rng.Uniform(-gridJitter, gridJitter)
	return components.Vec2{X: x, Y: 1 + gridPitch*float64(row)}
}

// health checks that every body centre is within x in [-wallX, wallX],
// y in (-0.5, wallTop), with a tolerance of 0.1 m.
func (o openBox) health(b *Built) func(w *arche.World) Health {
	const tol = 0.1
	return func(w *arche.World) Health {
		ps := newPoses(w)
		nan, out := 0, 0
		minY, maxY, maxX := math.Inf(1), math.Inf(-1), 0.0
		for _, e := range b.Bodies[3:] {
			t, ok := ps.get(e)
			if !ok || !finiteTransform(t) {
				nan++
				continue
			}
			p := t.P
			minY, maxY, maxX = math.Min(minY, p.Y), math.Max(maxY, p.Y), math.Max(maxX, math.Abs(p.X))
			if math.Abs(p.X) > o.wallX+tol || p.Y < -0.5-tol || p.Y > o.wallTop+tol {
				out++
			}
		}
		h := Health{OK: nan == 0 && out == 0, Values: []Value{
			{"bodies_outside", float64(out)}, {"max_abs_x_m", maxX}, {"min_y_m", minY}, {"max_y_m", maxY},
			{"wall_x_m", o.wallX}, {"wall_top_m", o.wallTop}, {"nan_bodies", float64(nan)}}}
		h.Message = fmt.Sprintf("%d of %d bodies outside the box (|x| <= %s, -0.5 < y < %s, tol %s m); |x| max %s, y in [%s, %s]",
			out, len(b.Bodies)-3, f(o.wallX), f(o.wallTop), f(tol), f(maxX), f(minY), f(maxY))
		if nan > 0 {
			h.Message += fmt.Sprintf("; %d NaN", nan)
		}
		return h
	}
}

// buildCircleRain: the open box, then circles; draws per body: radius
// U(0.25, 0.5), then jitter.
func buildCircleRain(w *arche.World, scale float64) (*Built, error) {
	return buildPile(w, scale, buildCircleBody)
}

// buildMixedPile: the open box, then bodies alternating box (even k; draws:
// width, height in U(0.5, 1), jitter) and circle (odd k; draws: radius in
// U(0.25, 0.5), jitter).
func buildMixedPile(w *arche.World, scale float64) (*Built, error) {
	return buildPile(w, scale, func(k int, o openBox, rng *SplitMix64) ecs.BodyDef {
		if k%2 == 0 {
			wd := rng.Uniform(0.5, 1.0)
			ht := rng.Uniform(0.5, 1.0)
			p := o.pos(k, rng)
			return dynBox(wd/2, ht/2, p.X, p.Y)
		}
		return buildCircleBody(k, o, rng)
	})
}

// buildCircleBody draws a circle of radius U(0.25, 0.5) at grid place k.
func buildCircleBody(k int, o openBox, rng *SplitMix64) ecs.BodyDef {
	r := rng.Uniform(0.25, 0.5)
	p := o.pos(k, rng)
	return dynCircle(r, p.X, p.Y)
}

// buildPile builds the open box of the given scale and its bodies, body k
// from body(k, box, rng); one splitmix64 stream seeded with 1 serves all
// bodies in order, so each builder must make its draws in scenes.md's order.
func buildPile(w *arche.World, scale float64, body func(k int, o openBox, rng *SplitMix64) ecs.BodyDef) (*Built, error) {
	o, err := newOpenBox(scale)
	if err != nil {
		return nil, err
	}
	defs := o.statics()
	rng := NewSplitMix64(1)
	for k := 0; k < o.n; k++ {
		defs = append(defs, body(k, o, rng))
	}
	b, err := create(w, defs)
	if err != nil {
		return nil, err
	}
	b.health = o.health(b)
	return b, nil
}

// ---- falling_bricks ----

// Falling bricks: inner half size of the closed box, wall half thickness,
// ticks between gravity turns.
const (
	bricksHX, bricksHY = 5.0, 3.75
	bricksWall         = 0.125
	bricksTurn         = 150
)

// brickSizes are the full sizes of the six bricks.
var brickSizes = [6][2]float64{{1.5, 0.5}, {1, 1}, {2, 0.4}, {0.8, 1.2}, {1.2, 0.6}, {0.6, 0.6}}

// buildFallingBricks: four static walls 0.25 thick around an inner 10 x 7.5
// box centred at the origin (bottom, top, left, right; bottom and top span
// the corners), then the six bricks at y = 2, x = -4 + 1.6k. Walls and bricks
// have friction 0.5 and restitution 0.2.
func buildFallingBricks(w *arche.World, _ float64) (*Built, error) {
	hx, hy, t := bricksHX, bricksHY, bricksWall
	defs := []ecs.BodyDef{
		staticBox(hx+2*t, t, 0, -hy-t), staticBox(hx+2*t, t, 0, hy+t),
		staticBox(t, hy, -hx-t, 0), staticBox(t, hy, hx+t, 0),
	}
	for k, s := range brickSizes {
		defs = append(defs, dynBox(s[0]/2, s[1]/2, -4+1.6*float64(k), 2))
	}
	for i := range defs {
		defs[i].Friction, defs[i].Restitution = 0.5, 0.2
	}
	b, err := create(w, defs)
	if err != nil {
		return nil, err
	}
	bricks := b.Bodies[4:]
	type turn struct {
		tick   int
		asleep int
	}
	var turns []turn
	allAsleepNow := func(w *arche.World) int {
		n := 0
		for _, e := range bricks {
			if ecs.IsSleeping(w, e) {
				n++
			}
		}
		return n
	}
	b.tick = func(w *arche.World, tick int) error {
		if tick == 0 || tick%bricksTurn != 0 {
			return nil
		}
		turns = append(turns, turn{tick, allAsleepNow(w)})
		g := ecs.GetGravity(w)
		return ecs.SetGravity(w, components.Vec2{X: g.Y, Y: -g.X}) // 90 degrees clockwise
	}
	const tol = 0.1
	b.health = func(w *arche.World) Health {
		ps := newPoses(w)
		nan, out := 0, 0
		for _, e := range bricks {
			t, ok := ps.get(e)
			if !ok || !finiteTransform(t) {
				nan++
				continue
			}
			if math.Abs(t.P.X) > hx+tol || math.Abs(t.P.Y) > hy+tol {
				out++
			}
		}
		checks := turns
		// The state at the end of the run counts as one more check if a
		// full period has passed since the last turn.
		if b.Ticks > 0 && b.Ticks%bricksTurn == 0 {
			checks = append(checks[:len(checks):len(checks)], turn{b.Ticks, allAsleepNow(w)})
		}
		awakeChecks := 0
		msg := ""
		for _, c := range checks {
			if c.asleep != len(bricks) {
				awakeChecks++
				msg += fmt.Sprintf(" tick %d: %d/%d asleep;", c.tick, c.asleep, len(bricks))
			}
		}
		h := Health{OK: nan == 0 && out == 0 && awakeChecks == 0, Values: []Value{
			{"bricks_outside", float64(out)}, {"sleep_checks", float64(len(checks))},
			{"sleep_checks_failed", float64(awakeChecks)}, {"nan_bodies", float64(nan)}}}
		h.Message = fmt.Sprintf("%d of %d bricks outside the box; all asleep at %d of %d checks (every %d ticks)",
			out, len(bricks), len(checks)-awakeChecks, len(checks), bricksTurn)
		if msg != "" {
			h.Message += ";" + msg[:len(msg)-1]
		}
		if nan > 0 {
			h.Message += fmt.Sprintf("; %d NaN", nan)
		}
		return h
	}
	return b, nil
}

// ---- cool_demo ----

// Cool demo: pixels per metre and world height in pixels (y down).
const (
	pxPerM   = 20.0
	demoW    = 800.0
	demoH    = 450.0
	demoKill = -50.0 // bodies below this y (m) are removed
)

// px converts a y-down pixel position to metres, y up.
func px(x, y float64) components.Vec2 {
	return components.Vec2{X: x / pxPerM, Y: (demoH - y) / pxPerM}
}

// buildCoolDemo: four static platforms (full sizes in px; angle 2.8 rad in
// y-down is -2.8 rad in y-up), then round(10 F) pairs of a box and a circle,
// interleaved (box, circle, box, ...), from splitmix64 seeded with 1. Draws
// per box: x in [0, 800) px, y in [0, 225) px, width and height in [10, 60)
// px, mass in [1, 30) kg, friction, restitution in [0, 1), vx, vy in
// [-30, 30) px/s; per circle the same with one radius in [10, 30) px instead
// of width and height. The book draws mass in [0, 30) and treats 0 as
// static; here every random body is dynamic, so mass starts at 1 kg.
func buildCoolDemo(w *arche.World, scale float64) (*Built, error) {
	plat := func(x, y, wd, ht, rot float64) ecs.BodyDef {
		p := px(x, y)
		d := staticBox(wd/2/pxPerM, ht/2/pxPerM, p.X, p.Y)
		d.Angle = -rot
		return d
	}
	defs := []ecs.BodyDef{
		plat(500, 200, 400, 20, 2.8), plat(200, 400, 400, 20, 0),
		plat(100, 200, 200, 20, 0), plat(10, 360, 20, 100, 0),
	}
	pairs := int(math.Round(10 * scale))
	rng := NewSplitMix64(1)
	for k := 0; k < 2*pairs; k++ {
		p := px(rng.Uniform(0, demoW), rng.Uniform(0, demoH/2))
		var d ecs.BodyDef
		if k%2 == 0 {
			d = dynBox(rng.Uniform(10, 60)/2/pxPerM, rng.Uniform(10, 60)/2/pxPerM, p.X, p.Y)
		} else {
			d = dynCircle(rng.Uniform(10, 30)/pxPerM, p.X, p.Y)
		}
		d.Mass = rng.Uniform(1, 30)
		d.Friction = rng.Uniform(0, 1)
		d.Restitution = rng.Uniform(0, 1)
		vx, vy := rng.Uniform(-30, 30), rng.Uniform(-30, 30)
		d.LinearVelocity = components.Vec2{X: vx / pxPerM, Y: -vy / pxPerM}
		defs = append(defs, d)
	}
	b, err := create(w, defs)
	if err != nil {
		return nil, err
	}
	removed := 0
	var tm generic.Map[components.Transform]
	bound := false
	b.tick = func(w *arche.World, _ int) error {
		if !bound {
			tm, bound = generic.NewMap[components.Transform](w), true
		}
		for _, e := range b.Bodies[4:] {
			if w.Alive(e) && tm.Get(e).P.Y < demoKill {
				w.RemoveEntity(e)
				removed++
			}
		}
		return nil
	}
	b.health = func(w *arche.World) Health {
		nan := countNaN(w, b.Bodies)
		refused := reportErrors(w)
		alive := len(b.Bodies) - 4 - removed
		h := Health{OK: nan == 0 && refused == 0, Values: []Value{
			{"nan_bodies", float64(nan)}, {"refused_bodies", float64(refused)},
			{"removed", float64(removed)}, {"alive", float64(alive)}}}
		h.Message = fmt.Sprintf("%d NaN, %d refused by the engine; %d of %d random bodies removed below y = %s m",
			nan, refused, removed, len(b.Bodies)-4, f(demoKill))
		return h
	}
	return b, nil
}
