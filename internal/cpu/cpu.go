// Package cpu reads the x86-64 feature registers (CPUID, XGETBV) for the
// assembly of packages solver (the AVX2 and AVX-512 contact kernels),
// broadphase (the AVX-512 and AVX2 member tests) and internal/prefetch (PREFETCHW),
// and says which of them may run (AVX2, AVX512). It has no code on other
// architectures or with the purego build tag, where nothing asks for it.
package cpu
