//go:build amd64 && !purego

package solver

// wideKernel reports whether the coloured stages run on the AVX2 kernels of
// wide_amd64.s: the CPU has AVX2 and the operating system saves the YMM
// registers (CPUID leaf 7 EBX bit 5; leaf 1 ECX bits 27 OSXSAVE and 28 AVX;
// XCR0 bits 1 and 2).
var wideKernel = haveAVX2()

func haveAVX2() bool {
	if maxLeaf, _, _, _ := cpuid(0, 0); maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := cpuid(1, 0)
	if ecx1&(1<<27) == 0 || ecx1&(1<<28) == 0 {
		return false
	}
	if xcr0, _ := xgetbv(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := cpuid(7, 0)
	return ebx7&(1<<5) != 0
}

//go:noescape
func warmWideAVX2(blocks *wideContact, n int, bodies *BodyState, prm *wideParams)

//go:noescape
func solveWideAVX2(blocks *wideContact, n int, bodies *BodyState, prm *wideParams)

func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

func xgetbv() (eax, edx uint32)

// warmWide and solveWide run the AVX2 kernels over blocks. bodies must hold
// every row the blocks address, the zero row included.
func warmWide(blocks []wideContact, bodies []BodyState, prm *wideParams) {
	if len(blocks) > 0 {
		warmWideAVX2(&blocks[0], len(blocks), &bodies[0], prm)
	}
}

func solveWide(blocks []wideContact, bodies []BodyState, prm *wideParams) {
	if len(blocks) > 0 {
		solveWideAVX2(&blocks[0], len(blocks), &bodies[0], prm)
	}
}
