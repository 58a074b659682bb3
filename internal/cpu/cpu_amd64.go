//go:build amd64 && !purego

package cpu

// CPUID returns the registers that the CPUID instruction gives for leaf
// eaxArg and subleaf ecxArg.
func CPUID(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)

// XGETBV returns the extended control register XCR0 (which register
// states the operating system saves), low half in eax. Call it only where
// CPUID leaf 1 reports OSXSAVE (ECX bit 27).
func XGETBV() (eax, edx uint32)
