//go:build amd64 && !purego

#include "textflag.h"

// AVX2 kernels of the coloured contact stages: four contacts per register,
// lane l of every vector belonging to contact l of a half of a wideContact
// block. They take each block as two halves: DI points at the fields of
// lanes 0-3, then 32 bytes further at those of lanes 4-7; BX holds the
// block (its point count) and AX its heavy bytes of the half. Each
// lane performs the operations of solveContact and warmStart in their order,
// with no fused multiply-add, so a lane's result is the scalar one; max and
// min are VMAXPD/VMINPD, whose rule (Intel's first source if strictly
// greater, or less, else the second) is that of maxf(a, b) and minf(a, b)
// with a as Intel's first source, which Go's reversed operand order writes
// second: VMAXPD b, a, dst.

#include "wide_amd64.h"

// The shared arithmetic (wide_ops_amd64.h) on the ymm registers.
#define V0 Y0
#define V1 Y1
#define V2 Y2
#define V3 Y3
#define V4 Y4
#define V5 Y5
#define V6 Y6
#define V7 Y7
#define V8 Y8
#define V9 Y9
#define V10 Y10
#define V11 Y11
#define V12 Y12
#define V13 Y13
#define V14 Y14
#define V15 Y15
#define BLK DI
#include "wide_ops_amd64.h"

// Scratch on the stack (hardware SP).
#define SDPX 0
#define SDPY 32
#define SQAC 64
#define SQAS 96
#define SQBC 128
#define SQBS 160
#define SDXA 192
#define SDXB 224
#define SMS 256
#define SIS 288
#define SBR 320
#define SDF 352

// TRANSPOSE turns the rows r0..r3 (element e of lane l in r_l[e]) into the
// columns o0..o3 (o_e[l]); it is its own inverse. t0..t3 are clobbered.
#define TRANSPOSE(r0, r1, r2, r3, t0, t1, t2, t3, o0, o1, o2, o3) \
	VUNPCKLPD r1, r0, t0; \
	VUNPCKHPD r1, r0, t1; \
	VUNPCKLPD r3, r2, t2; \
	VUNPCKHPD r3, r2, t3; \
	VPERM2F128 $0x20, t2, t0, o0; \
	VPERM2F128 $0x20, t3, t1, o1; \
	VPERM2F128 $0x31, t2, t0, o2; \
	VPERM2F128 $0x31, t3, t1, o3

// LOADROWS loads 32 bytes at byte offset off of the four rows whose offsets
// are at offs(DI) into Y8..Y11.
#define LOADROWS(offs, off) \
	MOVQ offs+0(DI), R10; \
	MOVQ offs+8(DI), R11; \
	MOVQ offs+16(DI), R12; \
	MOVQ offs+24(DI), R13; \
	VMOVUPD off(SI)(R10*1), Y8; \
	VMOVUPD off(SI)(R11*1), Y9; \
	VMOVUPD off(SI)(R12*1), Y10; \
	VMOVUPD off(SI)(R13*1), Y11

// NORMAL solves the non-penetration row of point PT.
#define NORMAL(PT) \
	VMOVUPD SQBC(SP), Y8; \
	VMULPD RBX(PT), Y8, Y8; \
	VMOVUPD SQBS(SP), Y9; \
	VMULPD RBY(PT), Y9, Y9; \
	VSUBPD Y9, Y8, Y8; \
	VADDPD SDPX(SP), Y8, Y8; \
	VMOVUPD SQAC(SP), Y9; \
	VMULPD RAX(PT), Y9, Y9; \
	VMOVUPD SQAS(SP), Y10; \
	VMULPD RAY(PT), Y10, Y10; \
	VSUBPD Y10, Y9, Y9; \
	VSUBPD Y9, Y8, Y8; \
	VMOVUPD SQBS(SP), Y9; \
	VMULPD RBX(PT), Y9, Y9; \
	VMOVUPD SQBC(SP), Y10; \
	VMULPD RBY(PT), Y10, Y10; \
	VADDPD Y10, Y9, Y9; \
	VADDPD SDPY(SP), Y9, Y9; \
	VMOVUPD SQAS(SP), Y10; \
	VMULPD RAX(PT), Y10, Y10; \
	VMOVUPD SQAC(SP), Y11; \
	VMULPD RAY(PT), Y11, Y11; \
	VADDPD Y11, Y10, Y10; \
	VSUBPD Y10, Y9, Y9; \
	VMULPD Y6, Y8, Y8; \
	VMULPD Y7, Y9, Y9; \
	VADDPD Y9, Y8, Y8; \
	VADDPD BASESEP(PT), Y8, Y8; \
	VCMPPD $0x1e, PZERO(DX), Y8, Y9; \
	VMULPD PINVH(DX), Y8, Y10; \
	VADDPD PDEEP(DX), Y8, Y12; \
	VMINPD PZERO(DX), Y12, Y12; \
	VMULPD SDF(SP), Y12, Y12; \
	VSUBPD Y12, Y8, Y12; \
	VMULPD SBR(SP), Y12, Y11; \
	VMAXPD PNEGMPO(DX), Y11, Y11; \
	VANDPD PBIAS(DX), Y11, Y11; \
	VBLENDVPD Y9, Y10, Y11, Y11; \
	VMOVUPD SMS(SP), Y12; \
	VBLENDVPD Y9, PONE(DX), Y12, Y12; \
	VMOVUPD SIS(SP), Y13; \
	VANDNPD Y13, Y9, Y13; \
	NORMALTAIL(PT)

// GATHERV loads the velocities of both sides: (Y0, Y1, Y2) for A and
// (Y3, Y4, Y5) for B, and their x deltas into the SDXA and SDXB slots.
#define GATHERV \
	LOADROWS(OFFA, 0); \
	TRANSPOSE(Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15, Y0, Y1, Y2, Y8); \
	VMOVUPD Y8, SDXA(SP); \
	LOADROWS(OFFB, 0); \
	TRANSPOSE(Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15, Y3, Y4, Y5, Y8); \
	VMOVUPD Y8, SDXB(SP)

// SCATTERROWS writes (vx, vy, w, dx) of one side back to the rows of the
// dynamic lanes; the x delta is written back unchanged.
#define SCATTERROWS(vx, vy, w, offs, masks, l0, l1, l2, l3) \
	TRANSPOSE(vx, vy, w, Y11, Y12, Y13, Y14, Y15, Y8, Y9, Y10, Y11); \
	CMPB masks+0(AX), $0; \
	JEQ l0; \
	MOVQ offs+0(DI), R10; \
	VMOVUPD Y8, (SI)(R10*1); \
l0: \
	CMPB masks+1(AX), $0; \
	JEQ l1; \
	MOVQ offs+8(DI), R10; \
	VMOVUPD Y9, (SI)(R10*1); \
l1: \
	CMPB masks+2(AX), $0; \
	JEQ l2; \
	MOVQ offs+16(DI), R10; \
	VMOVUPD Y10, (SI)(R10*1); \
l2: \
	CMPB masks+3(AX), $0; \
	JEQ l3; \
	MOVQ offs+24(DI), R10; \
	VMOVUPD Y11, (SI)(R10*1); \
l3:

// NEXTHALF moves DI and AX from the first half of a block to its second,
// or from the second half to the next block.
#define NEXTHALF(hi, next) \
	CMPQ DI, BX; \
	JNE hi; \
	ADDQ $32, DI; \
	ADDQ $4, AX; \
	JMP next; \
hi: \
	NEXTBLOCK(BX); \
	MOVQ BX, DI; \
	MOVQ BX, AX; \
next:

// func warmWideAVX2(blocks *wideContact, n int, bodies *BodyState, prm *wideParams)
TEXT ·warmWideAVX2(SB), NOSPLIT, $256-32
	MOVQ blocks+0(FP), BX
	MOVQ n+8(FP), CX
	MOVQ bodies+16(FP), SI
	MOVQ prm+24(FP), DX
	TESTQ CX, CX
	JLE warmdone
	SHLQ $1, CX
	MOVQ BX, DI
	MOVQ BX, AX

warmloop:
	GATHERV
	VMOVUPD NX(DI), Y6
	VMOVUPD NY(DI), Y7
	VXORPD PSIGN(DX), Y6, Y12
	LEAQ PT0(DI), R8
	WARM(R8)
	CMPQ POINTS(BX), $1
	JEQ warmscatter
	LEAQ PT1(DI), R9
	WARM(R9)

warmscatter:
	VMOVUPD SDXA(SP), Y11
	SCATTERROWS(Y0, Y1, Y2, OFFA, MASKA, wa0, wa1, wa2, wa3)
	VMOVUPD SDXB(SP), Y11
	SCATTERROWS(Y3, Y4, Y5, OFFB, MASKB, wb0, wb1, wb2, wb3)
	NEXTHALF(warmhi, warmnext)
	DECQ CX
	JNZ warmloop

warmdone:
	VZEROUPPER
	RET

// func solveWideAVX2(blocks *wideContact, n int, bodies *BodyState, prm *wideParams)
TEXT ·solveWideAVX2(SB), NOSPLIT, $384-32
	MOVQ blocks+0(FP), BX
	MOVQ n+8(FP), CX
	MOVQ bodies+16(FP), SI
	MOVQ prm+24(FP), DX
	TESTQ CX, CX
	JLE solvedone
	SHLQ $1, CX
	MOVQ BX, DI
	MOVQ BX, AX

solveloop:
	// Second halves of the rows first: (dy, qc, qs, pad).
	LOADROWS(OFFA, 32)
	TRANSPOSE(Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15, Y0, Y1, Y2, Y3)
	VXORPD PSIGN(DX), Y0, Y0
	VMOVUPD Y1, SQAC(SP)
	VMOVUPD Y2, SQAS(SP)
	LOADROWS(OFFB, 32)
	TRANSPOSE(Y8, Y9, Y10, Y11, Y12, Y13, Y14, Y15, Y4, Y1, Y2, Y3)
	VADDPD Y4, Y0, Y0
	VMOVUPD Y0, SDPY(SP)
	VMOVUPD Y1, SQBC(SP)
	VMOVUPD Y2, SQBS(SP)
	GATHERV
	VMOVUPD SDXA(SP), Y8
	VXORPD PSIGN(DX), Y8, Y8
	VADDPD SDXB(SP), Y8, Y8
	VMOVUPD Y8, SDPX(SP)

	// Softness of each lane (heavy in islands of very different masses,
	// then stiff against static and kinematic sides, which wins), and the
	// deep push-out fraction (0 in heavy islands); relax (bias mask 0)
	// uses mass scale 1 and impulse scale 0 on overlapping points.
	VPMOVSXBQ STIFF(AX), Y8
	VPMOVSXBQ HEAVY(AX), Y12
	VANDNPD PDEEPF(DX), Y12, Y9
	VMOVUPD Y9, SDF(SP)
	VMOVUPD PSOFTBR(DX), Y9
	VBLENDVPD Y12, PHEAVYBR(DX), Y9, Y9
	VBLENDVPD Y8, PSTIFFBR(DX), Y9, Y9
	VMOVUPD Y9, SBR(SP)
	VMOVUPD PSOFTMS(DX), Y9
	VBLENDVPD Y12, PHEAVYMS(DX), Y9, Y9
	VBLENDVPD Y8, PSTIFFMS(DX), Y9, Y9
	VMOVUPD PSOFTIS(DX), Y10
	VBLENDVPD Y12, PHEAVYIS(DX), Y10, Y10
	VBLENDVPD Y8, PSTIFFIS(DX), Y10, Y10
	VMOVUPD PBIAS(DX), Y8
	VMOVUPD PONE(DX), Y11
	VBLENDVPD Y8, Y9, Y11, Y11
	VMOVUPD Y11, SMS(SP)
	VANDPD Y10, Y8, Y10
	VMOVUPD Y10, SIS(SP)

	VMOVUPD NX(DI), Y6
	VMOVUPD NY(DI), Y7
	LEAQ PT0(DI), R8
	CMPQ POINTS(BX), $1
	JNE twopoints
	NORMAL(R8)
	FRICROW(R8)
	JMP solvescatter

twopoints:
	LEAQ PT1(DI), R9
	CMPQ PFLIP(DX), $0
	JEQ noflip
	XCHGQ R8, R9

noflip:
	NORMAL(R8)
	NORMAL(R9)
	FRICROW(R8)
	FRICROW(R9)

solvescatter:
	VMOVUPD SDXA(SP), Y11
	SCATTERROWS(Y0, Y1, Y2, OFFA, MASKA, sa0, sa1, sa2, sa3)
	VMOVUPD SDXB(SP), Y11
	SCATTERROWS(Y3, Y4, Y5, OFFB, MASKB, sb0, sb1, sb2, sb3)
	NEXTHALF(solvehi, solvenext)
	DECQ CX
	JNZ solveloop

solvedone:
	VZEROUPPER
	RET
