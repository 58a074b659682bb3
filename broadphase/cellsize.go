package broadphase

import (
	"math"

	"github.com/tumble2d/tumble/components"
)

const (
	// maxSample bounds the number of boxes whose extent is sampled for the
	// automatic cell size, so choosing it costs O(1) per tick whatever n.
	maxSample = 255

	// fallbackCell is used when no sampled box has a positive finite
	// extent (all points, or all NaN): any positive size is exact, this one
	// is simply the engine's natural length unit.
	fallbackCell = 1.0
)

// autoFactor is the cell side in units of the median box extent: 2 when a
// query tests one member at a time, 2.5 with the kernels (scanWide). A box
// of extent e in cells of side s makes a query whose lower reach is widened
// by e (see query.go), so per axis a query covers a span of 2e: about
// 2e/s+1 cells, holding the boxes of that many cells. s = e gives 3x3 cells
// (nine row-range lookups' worth of hashing and more bucket collisions at
// one box per cell); s = 2e gives ~2x2 cells of ~4 boxes.
// BenchmarkCellFactor (whole tick, 100k pile of equal boxes) measured 150,
// 67, 69, 80 and 89 ns/body for s = 1, 1.5, 2, 3 and 4 e with one member
// tested at a time: flat between 1.5 and 2, so 2 is taken for its margin
// against the steep side below. With eight at a time (scanRangesAVX512),
// 132, 69, 65, 67, 66 and 69 ns/body for s = 1, 1.5, 2, 2.5, 3 and 4 e: flat
// from 2 to 3. In the scenes, whose boxes grow with their speed and whose
// largest members widen every query, 2.5 took 0.04 ms a step off
// circle_rain's broad phase (0.86 to 0.82), 0.03 off mixed_pile's, 0.02
// off many_pyramids' and 0.01 off tumbler's, and put 0.005 on
// large_pyramid's (one worker, medians of 4-5 alternating runs); one
// member at a time, it made the grid's query benchmarks 9-14 % slower.
var autoFactor = cellFactor(scanWide)

func cellFactor(wide bool) float64 {
	if wide {
		return 2.5
	}
	return 2
}

// autoCellSize returns autoFactor times the median of max(width, height)
// over at most maxSample evenly strided boxes. The median, unlike the mean
// or the maximum, ignores the few huge grounds and tiny debris that the
// hierarchy (cellset.go) takes care of; striding keeps the rule
// deterministic. buf is scratch space, returned for reuse.
func autoCellSize(boxes []components.AABB, buf []float64) (float64, []float64) {
	buf = buf[:0]
	n := len(boxes)
	if n == 0 {
		return 0, buf
	}
	step := (n + maxSample - 1) / maxSample
	for i := 0; i < n; i += step {
		b := &boxes[i]
		e := math.Max(b.Max.X-b.Min.X, b.Max.Y-b.Min.Y)
		if e > 0 && e <= math.MaxFloat64 { // rejects NaN, Inf, inverted
			buf = append(buf, e)
		}
	}
	if len(buf) == 0 {
		return fallbackCell, buf
	}
	m := selectNth(buf, len(buf)/2)
	s := autoFactor * m
	if !(s > 0 && s <= math.MaxFloat64) {
		s = fallbackCell
	}
	return s, buf
}

// selectNth returns the value that would be at index k if a were sorted
// (Hoare's quickselect with a median-of-three pivot; reorders a). Expected
// O(len(a)), and deterministic since the pivot rule has no randomness.
func selectNth(a []float64, k int) float64 {
	lo, hi := 0, len(a)-1
	for lo < hi {
		mid := lo + (hi-lo)/2
		// Median of three to the middle, as pivot.
		if a[mid] < a[lo] {
			a[mid], a[lo] = a[lo], a[mid]
		}
		if a[hi] < a[lo] {
			a[hi], a[lo] = a[lo], a[hi]
		}
		if a[hi] < a[mid] {
			a[hi], a[mid] = a[mid], a[hi]
		}
		p := a[mid]
		i, j := lo, hi
		for i <= j {
			for a[i] < p {
				i++
			}
			for a[j] > p {
				j--
			}
			if i <= j {
				a[i], a[j] = a[j], a[i]
				i++
				j--
			}
		}
		// Now a[lo..j] <= p <= a[i..hi] and everything between equals p.
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return a[k]
		}
	}
	return a[k]
}
