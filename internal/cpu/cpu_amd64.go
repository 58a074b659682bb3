//go:build amd64 && !purego

package cpu

import "runtime"

// AVX2 reports whether the CPU has AVX2 and POPCNT and the operating system
// saves the YMM registers (CPUID leaf 7 EBX bit 5; leaf 1 ECX bits 23
// POPCNT, 27 OSXSAVE and 28 AVX; XCR0 bits 1 and 2). Every AVX2 CPU has
// POPCNT; the broad phase's kernels use it.
var AVX2 = haveAVX2()

// AVX512 reports whether the assembly may use the AVX-512 kernels: AVX2,
// AVX-512 F and DQ (leaf 7 EBX bits 16 and 17), and an operating system
// that saves the opmask and ZMM registers (XCR0 bits 5 to 7). Never on
// macOS, which turns the AVX-512 state on per thread at its first use
// (XCR0 does not show it before) and whose signal handling has lost
// opmask registers (golang/go#49233).
var AVX512 = AVX2 && runtime.GOOS != "darwin" && haveAVX512()

func haveAVX2() bool {
	if maxLeaf, _, _, _ := CPUID(0, 0); maxLeaf < 7 {
		return false
	}
	_, _, ecx1, _ := CPUID(1, 0)
	if ecx1&(1<<23) == 0 || ecx1&(1<<27) == 0 || ecx1&(1<<28) == 0 {
		return false
	}
	if xcr0, _ := XGETBV(); xcr0&6 != 6 {
		return false
	}
	_, ebx7, _, _ := CPUID(7, 0)
	return ebx7&(1<<5) != 0
}

func haveAVX512() bool {
	if xcr0, _ := XGETBV(); xcr0&0xe6 != 0xe6 {
		return false
	}
	_, ebx7, _, _ := CPUID(7, 0)
	return ebx7&(1<<16) != 0 && ebx7&(1<<17) != 0
}

// CPUID returns the registers that the CPUID instruction gives for leaf
// eaxArg and subleaf ecxArg.
func CPUID(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// XGETBV returns the extended control register XCR0 (which register
// states the operating system saves), low half in eax. Call it only where
// CPUID leaf 1 reports OSXSAVE (ECX bit 27).
func XGETBV() (eax, edx uint32)
