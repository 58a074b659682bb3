//go:build !amd64 || purego

package solver

// wideKernel is false without the AVX2 kernels: the coloured stages then
// run the scalar kernels contact by contact, which give the same results
// (up to the sign of zeros) and are faster than the lane-by-lane Go
// versions below.
var wideKernel = false

// wide512 is false: there are no AVX-512 kernels either.
var wide512 = false

func warmWide(first *wideContact, n int, bodies []BodyState, _ *wideParams) {
	warmWideRef(first, n, bodies)
}

func solveWide(first *wideContact, n int, bodies []BodyState, prm *wideParams) {
	solveWideRef(first, n, bodies, prm)
}
