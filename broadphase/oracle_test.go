package broadphase

import (
	"math"
	"math/rand/v2"

	"github.com/tumble2d/tumble/components"
)

// brutePairs is the reference: every moving-moving (i < j) and
// moving-frozen pair whose boxes Overlap, in (A, B) order.
func brutePairs(moving, frozen []components.AABB) []Pair {
	return bruteReachPairs(moving, moving, frozen)
}

// bruteReachPairs is the reference of UpdateReach: moving-moving pairs by
// the moving boxes, moving-frozen pairs by the reach boxes.
func bruteReachPairs(moving, reach, frozen []components.AABB) []Pair {
	var out []Pair
	n := len(moving)
	for i := range moving {
		for j := i + 1; j < n; j++ {
			if moving[i].Overlaps(moving[j]) {
				out = append(out, Pair{int32(i), int32(j)})
			}
		}
		for k := range frozen {
			if reach[i].Overlaps(frozen[k]) {
				out = append(out, Pair{int32(i), int32(n + k)})
			}
		}
	}
	return out
}

func box(x0, y0, x1, y1 float64) components.AABB {
	return components.AABB{Min: components.V(x0, y0), Max: components.V(x1, y1)}
}

func boxAt(cx, cy, w, h float64) components.AABB {
	return box(cx-w/2, cy-h/2, cx+w/2, cy+h/2)
}

// uniformBoxes scatters n boxes of side 0.8..1.2 m over a square holding
// about density boxes per m^2, centred at (ox, oy).
func uniformBoxes(r *rand.Rand, n int, density, ox, oy float64) []components.AABB {
	side := math.Sqrt(float64(n) / density)
	out := make([]components.AABB, n)
	for i := range out {
		out[i] = boxAt(ox+(r.Float64()-0.5)*side, oy+(r.Float64()-0.5)*side, 0.8+0.4*r.Float64(), 0.8+0.4*r.Float64())
	}
	return out
}

// mixedBoxes mixes 1 m boxes with tiny debris, grounds, walls, far-away
// clusters, huge and degenerate boxes, all with negative coordinates too.
func mixedBoxes(r *rand.Rand, n int) []components.AABB {
	out := make([]components.AABB, 0, n)
	for len(out) < n {
		x, y := (r.Float64()-0.5)*60, (r.Float64()-0.5)*60
		switch k := r.IntN(100); {
		case k < 55:
			out = append(out, boxAt(x, y, 0.5+r.Float64(), 0.5+r.Float64()))
		case k < 75: // tiny
			out = append(out, boxAt(x, y, 0.01, 0.01*(1+r.Float64())))
		case k < 80: // ground 200 x 2, or a long thin one
			out = append(out, boxAt(x, y, 200, 2))
		case k < 83:
			out = append(out, boxAt(x, y, 220, 0.1))
		case k < 86: // wall
			out = append(out, boxAt(x, y, 0.2, 150))
		case k < 92: // far away, both signs
			sx, sy := float64(1-2*r.IntN(2)), float64(1-2*r.IntN(2))
			out = append(out, boxAt(sx*1e6+x/10, sy*1e6+y/10, 0.5+r.Float64(), 0.5+r.Float64()))
		case k < 94: // medium
			out = append(out, boxAt(x, y, 5+10*r.Float64(), 5+10*r.Float64()))
		case k < 95: // points, on a lattice so some coincide
			px, py := math.Round(x), math.Round(y)
			out = append(out, box(px, py, px, py))
		case k < 96: // enormous
			out = append(out, boxAt(x, y, 1e9, 3))
		default: // 1 m boxes on a lattice: exact edge contacts
			px, py := math.Round(x/4), math.Round(y/4)
			out = append(out, box(px, py, px+1, py+1))
		}
	}
	return out
}

// degenerateBoxes are legal-but-odd inputs: NaN, infinities, inverted.
func degenerateBoxes() []components.AABB {
	inf, nan := math.Inf(1), math.NaN()
	return []components.AABB{
		box(nan, 0, 1, 1),
		box(0, 0, 1, nan),
		box(-inf, -inf, inf, inf), // overlaps everything valid
		box(-inf, 0, -inf, 1),
		box(inf, 0, inf, 1),
		box(-inf, 0, inf, 0.5), // infinite horizontal strip
		box(3, 3, 2, 2),        // inverted
		box(5, -1, 4, 10),      // inverted in x only
		box(1e300, 1e300, 1.5e300, 1.5e300),
		box(-1.7e308, -1.7e308, 1.7e308, -1e308),
	}
}

// pile is the benchmark scene: 1 m boxes (1.02 m, so neighbours overlap
// slightly) in a brick pattern in a 100 m wide column on a ground. Every
// box meets its left and right neighbours and two above and two below:
// about 3 pairs per box.
func pile(n int) []components.AABB {
	out := make([]components.AABB, n)
	for i := range out {
		row, col := i/100, i%100
		x := float64(col) + 0.5*float64(row%2) - 50
		y := float64(row) + 0.5
		out[i] = boxAt(x, y, 1.02, 1.02)
	}
	return out
}

// pyramids is the many_pyramids scene: 20 static grounds 220 m x 0.1 m, 12 m
// apart, each carrying up to 20 pyramids of base 10 (55 boxes of 1 m): with
// n = 22000 every ground is full.
func pyramids(n int) (moving, frozen []components.AABB) {
	const grounds, base = 20, 10
	for g := range grounds {
		frozen = append(frozen, boxAt(0, 12*float64(g), 220, 0.1))
	}
	for g := 0; g < grounds && len(moving) < n; g++ {
		y0 := 12*float64(g) + 0.05
		for p := 0; p < 20 && len(moving) < n; p++ {
			x0 := -110 + 11*float64(p) + 0.5
			for row := 0; row < base && len(moving) < n; row++ {
				for k := 0; k < base-row && len(moving) < n; k++ {
					x := x0 + float64(k) + 0.5*float64(row)
					y := y0 + float64(row) + 0.5
					moving = append(moving, boxAt(x, y, 1.01, 1.01))
				}
			}
		}
	}
	return moving, frozen
}

// roundingBoxes are chains of boxes at large coordinates where each box
// starts exactly where the previous one ends, with widths near the ulp of
// the coordinates: the query's lower reach (Min - largest width) is then
// rounded, and an exact touch is lost unless the slack covers it.
func roundingBoxes(r *rand.Rand, n int) []components.AABB {
	out := make([]components.AABB, 0, n)
	for len(out) < n {
		if r.IntN(3) == 0 {
			// B = [-eps, X] straddles the cell boundary at 0 (one for
			// every cell size), and fl(X+eps) = X, so the reach
			// X - width(B) computed for A = [X, ...] rounds to 0: just
			// above B's Min, in the next cell.
			x := math.Ldexp(1+r.Float64(), r.IntN(40))
			eps := x * math.Ldexp(r.Float64(), -60)
			for k := 0; k < 20 && len(out)+1 < n; k++ {
				y := (r.Float64() - 0.5) * 100
				out = append(out, box(-eps, y, x, y+1), box(x, y+0.5, x*1.5, y+2))
			}
			continue
		}
		mag := math.Pow(10, float64(3+r.IntN(13)))
		if r.IntN(2) == 0 {
			mag = -mag
		}
		x, y := mag*(1+r.Float64()), mag*(1+r.Float64())
		w := math.Abs(mag) * math.Pow(2, -float64(30+r.IntN(22)))
		for k := 0; k < 6 && len(out) < n; k++ {
			nx := x + w*(0.3+r.Float64())
			ny := y + w*(0.3+r.Float64())
			out = append(out, box(x, y, nx, ny))
			if r.IntN(2) == 0 {
				x = nx
			} else {
				y = ny
			}
		}
	}
	return out
}
