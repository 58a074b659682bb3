//go:build amd64 && !purego

package solver

import (
	"runtime"

	"github.com/tumble2d/tumble/internal/cpu"
)

// wideKernel reports whether the coloured stages run on the assembly
// kernels: the CPU has AVX2 and the operating system saves the YMM
// registers (CPUID leaf 7 EBX bit 5; leaf 1 ECX bits 27 OSXSAVE and 28 AVX;
// XCR0 bits 1 and 2).
var wideKernel = haveAVX2()

// wide512 reports whether they run on the AVX-512 kernels of
// wide512_amd64.s, eight lanes a pass, rather than the AVX2 ones of
// wide_amd64.s, four: the CPU has AVX-512 F and DQ (leaf 7 EBX bits 16 and
// 17) and the operating system saves the opmask and ZMM registers (XCR0
// bits 5 to 7). Both give the same bits. Not on macOS, which turns the
// AVX-512 state on per thread at its first use (XCR0 does not show it
// before) and whose signal handling has lost opmask registers
// (golang/go#49233).
var wide512 = wideKernel && runtime.GOOS != "darwin" && haveAVX512()

func haveAVX2() bool {
	if maxLeaf, _, _, _ := cpu.CPUID(0, 0); maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpu.CPUID(1, 0)
	if ecx1&(1<<27) == 0 || ecx1&(1<<28) == 0 {
		return false
	}
	if xcr0, _ := cpu.XGETBV(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpu.CPUID(7, 0)
	return ebx7&(1<<5) != 0
}

func haveAVX512() bool {
	if xcr0, _ := cpu.XGETBV(); xcr0&0xe6 != 0xe6 {
		return false
	}
	_, ebx7, _, _ := cpu.CPUID(7, 0)
	return ebx7&(1<<16) != 0 && ebx7&(1<<17) != 0
}

//go:noescape
func warmWideAVX2(blocks *wideContact, n int, bodies *BodyState, prm *wideParams)

//go:noescape
func solveWideAVX2(blocks *wideContact, n int, bodies *BodyState, prm *wideParams)

//go:noescape
func warmWideAVX512(blocks *wideContact, n int, bodies *BodyState, prm *wideParams)

//go:noescape
func solveWideAVX512(blocks *wideContact, n int, bodies *BodyState, prm *wideParams)

// warmWide and solveWide run the assembly kernels over blocks. bodies must
// hold every row the blocks address, the zero row included.
func warmWide(blocks []wideContact, bodies []BodyState, prm *wideParams) {
	switch {
	case len(blocks) == 0:
	case wide512:
		warmWideAVX512(&blocks[0], len(blocks), &bodies[0], prm)
	default:
		warmWideAVX2(&blocks[0], len(blocks), &bodies[0], prm)
	}
}

func solveWide(blocks []wideContact, bodies []BodyState, prm *wideParams) {
	switch {
	case len(blocks) == 0:
	case wide512:
		solveWideAVX512(&blocks[0], len(blocks), &bodies[0], prm)
	default:
		solveWideAVX2(&blocks[0], len(blocks), &bodies[0], prm)
	}
}
