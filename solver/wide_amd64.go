//go:build amd64 && !purego

package solver

import "github.com/tumble2d/tumble/internal/cpu"

// wideKernel reports whether the coloured stages run on the assembly
// kernels: the CPU has AVX2 and the operating system saves the YMM
// registers (cpu.AVX2).
var wideKernel = cpu.AVX2

// wide512 reports whether they run on the AVX-512 kernels of
// wide512_amd64.s, eight lanes a pass, rather than the AVX2 ones of
// wide_amd64.s, four (cpu.AVX512, which says when). Both give the same
// bits.
var wide512 = cpu.AVX512

//go:noescape
func warmWideAVX2(blocks *wideContact, n int, bodies *BodyState, prm *wideParams)

//go:noescape
func solveWideAVX2(blocks *wideContact, n int, bodies *BodyState, prm *wideParams)

//go:noescape
func warmWideAVX512(blocks *wideContact, n int, bodies *BodyState, prm *wideParams)

//go:noescape
func solveWideAVX512(blocks *wideContact, n int, bodies *BodyState, prm *wideParams)

// warmWide and solveWide run the assembly kernels over the n blocks from
// first, back to back in the arena (wideUnit). bodies must hold every row
// the blocks address, the zero row included.
func warmWide(first *wideContact, n int, bodies []BodyState, prm *wideParams) {
	switch {
	case n == 0:
	case wide512:
		warmWideAVX512(first, n, &bodies[0], prm)
	default:
		warmWideAVX2(first, n, &bodies[0], prm)
	}
}

func solveWide(first *wideContact, n int, bodies []BodyState, prm *wideParams) {
	switch {
	case n == 0:
	case wide512:
		solveWideAVX512(first, n, &bodies[0], prm)
	default:
		solveWideAVX2(first, n, &bodies[0], prm)
	}
}
