// Package cpu reads the x86-64 feature registers (CPUID, XGETBV) for the
// assembly of package solver (the AVX2 and AVX-512 kernels) and of
// internal/prefetch (PREFETCHW). It has no code on other architectures or
// with the purego build tag, where nothing asks for it.
package cpu
