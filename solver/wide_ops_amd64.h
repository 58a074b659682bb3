// The arithmetic of the wide kernels that both instruction sets share,
// written on the vector registers V0-V15: wide_amd64.s names them Y0-Y15
// (AVX2, four lanes), wide512_amd64.s Z0-Z15 (AVX-512, eight lanes). V0-V2
// and V3-V5 hold the velocities (vx, vy, w) of sides A and B, V6 and V7 the
// normal; BLK (a register the including file names) points at the block's
// fields, DX at the stage's wideParams. The macros are expanded where they
// are used, so a kernel may rename V0-V7 and BLK between uses to run the
// same arithmetic on a second block (wide512_amd64.s).

// APPLY applies the impulse (px, py) = (V8, V9) at point PT to both bodies.
#define APPLY(PT) \
	VMULPD MA(BLK), V8, V10; \
	VSUBPD V10, V0, V0; \
	VMULPD MA(BLK), V9, V10; \
	VSUBPD V10, V1, V1; \
	VMULPD RAX(PT), V9, V10; \
	VMULPD RAY(PT), V8, V11; \
	VSUBPD V11, V10, V10; \
	VMULPD IA(BLK), V10, V10; \
	VSUBPD V10, V2, V2; \
	VMULPD MB(BLK), V8, V10; \
	VADDPD V10, V3, V3; \
	VMULPD MB(BLK), V9, V10; \
	VADDPD V10, V4, V4; \
	VMULPD RBX(PT), V9, V10; \
	VMULPD RBY(PT), V8, V11; \
	VSUBPD V11, V10, V10; \
	VMULPD IB(BLK), V10, V10; \
	VADDPD V10, V5, V5

// RELVEL leaves the relative velocity of point PT in (V10, V14).
#define RELVEL(PT) \
	VMULPD RBY(PT), V5, V10; \
	VSUBPD V10, V3, V10; \
	VMULPD RAY(PT), V2, V14; \
	VSUBPD V14, V0, V14; \
	VSUBPD V14, V10, V10; \
	VMULPD RBX(PT), V5, V14; \
	VADDPD V14, V4, V14; \
	VMULPD RAX(PT), V2, V15; \
	VADDPD V15, V1, V15; \
	VSUBPD V15, V14, V14

// NORMALTAIL finishes the non-penetration row of point PT once the kernel
// has its bias in V11, mass scale in V12 and impulse scale in V13.
#define NORMALTAIL(PT) \
	RELVEL(PT); \
	VMULPD V6, V10, V10; \
	VMULPD V7, V14, V14; \
	VADDPD V14, V10, V10; \
	VADDPD V11, V10, V10; \
	VMOVUPD NMASS(PT), V14; \
	VXORPD PSIGN(DX), V14, V14; \
	VMULPD V12, V14, V14; \
	VMULPD V10, V14, V14; \
	VMOVUPD NIMP(PT), V15; \
	VMULPD V15, V13, V13; \
	VSUBPD V13, V14, V14; \
	VADDPD V14, V15, V14; \
	VMAXPD PZERO(DX), V14, V14; \
	VSUBPD V15, V14, V15; \
	VMOVUPD V14, NIMP(PT); \
	VMOVUPD MAXNIMP(PT), V13; \
	VMAXPD V15, V13, V13; \
	VMOVUPD V13, MAXNIMP(PT); \
	VMULPD V6, V15, V8; \
	VMULPD V7, V15, V9; \
	APPLY(PT)

// FRICROW solves the friction row of point PT (tangent (ny, -nx)).
#define FRICROW(PT) \
	RELVEL(PT); \
	VXORPD PSIGN(DX), V6, V12; \
	VMULPD V7, V10, V10; \
	VMULPD V12, V14, V14; \
	VADDPD V14, V10, V10; \
	VMOVUPD TMASS(PT), V14; \
	VXORPD PSIGN(DX), V14, V14; \
	VMULPD V10, V14, V14; \
	VMOVUPD FRIC(BLK), V13; \
	VMULPD NIMP(PT), V13, V13; \
	VMOVUPD TIMP(PT), V15; \
	VADDPD V14, V15, V14; \
	VMINPD V13, V14, V14; \
	VXORPD PSIGN(DX), V13, V13; \
	VMAXPD V14, V13, V14; \
	VSUBPD V15, V14, V15; \
	VMOVUPD V14, TIMP(PT); \
	VMULPD V7, V15, V8; \
	VMULPD V12, V15, V9; \
	APPLY(PT)

// WARM applies the accumulated impulses of point PT (V12 holds -nx).
// warmStart adds (-m) P where APPLY subtracts m P: the same bits, as IEEE
// defines a - b as a + (-b).
#define WARM(PT) \
	VMOVUPD NIMP(PT), V13; \
	VMOVUPD TIMP(PT), V14; \
	VMULPD V6, V13, V8; \
	VMULPD V7, V14, V10; \
	VADDPD V10, V8, V8; \
	VMULPD V7, V13, V9; \
	VMULPD V12, V14, V10; \
	VADDPD V10, V9, V9; \
	APPLY(PT)
