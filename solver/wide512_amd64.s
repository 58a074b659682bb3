//go:build amd64 && !purego

#include "textflag.h"

// AVX-512 kernels of the coloured contact stages: eight contacts per
// register, lane l of every vector belonging to contact l of a wideContact
// block. They are the AVX2 kernels of wide_amd64.s, operation for operation
// in the same order (the arithmetic they share is wide_ops_amd64.h), with
// three changes: a block is one pass, not two halves; the per-block values
// the AVX2 kernels keep on the stack live in Z16-Z27; and the lane selects
// are opmask blends (VBLENDMPD, zero-masking) where AVX2 blends by the sign
// of a vector mask. The same operations on the same operands give each
// lane the scalar kernel's bits.
//
// One block is a chain of dependent operations (gather, the points in turn,
// scatter) that the CPU does not overlap much with the next block's, so
// eight lanes a block take about as long as four. The solve and relax
// kernel therefore runs two blocks of a colour at a time where it can (see
// "Two blocks at a time" below).
//
// Registers: Z0-Z2 and Z3-Z5 the velocities (vx, vy, w) of sides A and B,
// Z6 and Z7 the normal, Z8-Z15 scratch, Z16 and Z17 the delta position of B
// from A, Z18-Z21 the delta rotations (cos, sin) of A and B, Z22 and Z23
// the x deltas of A and B (written back unchanged), Z24 the mass scale,
// Z25 the impulse scale, Z26 the bias rate and Z27 the deep push-out
// fraction of each lane.

#include "wide_amd64.h"

// The shared arithmetic (wide_ops_amd64.h) on the zmm registers.
#define V0 Z0
#define V1 Z1
#define V2 Z2
#define V3 Z3
#define V4 Z4
#define V5 Z5
#define V6 Z6
#define V7 Z7
#define V8 Z8
#define V9 Z9
#define V10 Z10
#define V11 Z11
#define V12 Z12
#define V13 Z13
#define V14 Z14
#define V15 Z15
#define BLK DI
#include "wide_ops_amd64.h"

// LOADROWS8 loads 32 bytes at byte offset off of the eight rows whose
// offsets are at offs(DI): Z8 = rows 0 | 2, Z9 = 1 | 3, Z10 = 4 | 6,
// Z11 = 5 | 7 (low | high 256 bits), the order TRANSPOSE8 takes.
#define LOADROWS8(offs, off) \
	MOVQ offs+0(DI), R10; \
	MOVQ offs+16(DI), R11; \
	MOVQ offs+8(DI), R12; \
	MOVQ offs+24(DI), R13; \
	VMOVUPD off(SI)(R10*1), Y8; \
	VINSERTF64X4 $1, off(SI)(R11*1), Z8, Z8; \
	VMOVUPD off(SI)(R12*1), Y9; \
	VINSERTF64X4 $1, off(SI)(R13*1), Z9, Z9; \
	MOVQ offs+32(DI), R10; \
	MOVQ offs+48(DI), R11; \
	MOVQ offs+40(DI), R12; \
	MOVQ offs+56(DI), R13; \
	VMOVUPD off(SI)(R10*1), Y10; \
	VINSERTF64X4 $1, off(SI)(R11*1), Z10, Z10; \
	VMOVUPD off(SI)(R12*1), Y11; \
	VINSERTF64X4 $1, off(SI)(R13*1), Z11, Z11

// TRANSPOSE8 turns four rows of four elements per register pair of rows,
// laid out as LOADROWS8 leaves them, into the columns o0..o3 (o_e[l] is
// element e of row l). VUNPCK pairs the elements within each 128-bit chunk;
// VSHUFF64X2 then takes chunks 0 and 2 (0x88), or 1 and 3 (0xDD), of each
// source. t0..t3 are clobbered.
#define TRANSPOSE8(a0, a1, a2, a3, t0, t1, t2, t3, o0, o1, o2, o3) \
	VUNPCKLPD a1, a0, t0; \
	VUNPCKHPD a1, a0, t1; \
	VUNPCKLPD a3, a2, t2; \
	VUNPCKHPD a3, a2, t3; \
	VSHUFF64X2 $0x88, t2, t0, o0; \
	VSHUFF64X2 $0x88, t3, t1, o1; \
	VSHUFF64X2 $0xdd, t2, t0, o2; \
	VSHUFF64X2 $0xdd, t3, t1, o3

// STORELO and STOREHI write 32 bytes (a ymm register, or the upper half of
// a zmm register) to the row of one lane where that side is dynamic, and to
// the sink on the stack (R9) where it is not: a conditional move instead of
// a branch, since static and dynamic lanes mix freely.
#define STOREADDR(off, mask) \
	MOVQ off(DI), R10; \
	LEAQ (SI)(R10*1), R10; \
	CMPB mask(DI), $0; \
	CMOVQEQ R9, R10

#define STORELO(off, mask, y) \
	STOREADDR(off, mask); \
	VMOVUPD y, (R10)

#define STOREHI(off, mask, z) \
	STOREADDR(off, mask); \
	VEXTRACTF64X4 $1, z, (R10)

// SCATTER8 writes (vx, vy, w, dx) of one side back to the rows of the
// dynamic lanes: the inverse of TRANSPOSE8, then one row per lane.
#define SCATTER8(c0, c1, c2, c3, offs, masks) \
	VUNPCKLPD c1, c0, Z8; \
	VUNPCKHPD c1, c0, Z9; \
	VUNPCKLPD c3, c2, Z10; \
	VUNPCKHPD c3, c2, Z11; \
	VSHUFF64X2 $0x44, Z10, Z8, Z12; \
	VSHUFF64X2 $0xd8, Z12, Z12, Z12; \
	VSHUFF64X2 $0xee, Z10, Z8, Z13; \
	VSHUFF64X2 $0xd8, Z13, Z13, Z13; \
	VSHUFF64X2 $0x44, Z11, Z9, Z14; \
	VSHUFF64X2 $0xd8, Z14, Z14, Z14; \
	VSHUFF64X2 $0xee, Z11, Z9, Z15; \
	VSHUFF64X2 $0xd8, Z15, Z15, Z15; \
	STORELO(offs+0, masks+0, Y12); \
	STOREHI(offs+16, masks+2, Z12); \
	STORELO(offs+32, masks+4, Y13); \
	STOREHI(offs+48, masks+6, Z13); \
	STORELO(offs+8, masks+1, Y14); \
	STOREHI(offs+24, masks+3, Z14); \
	STORELO(offs+40, masks+5, Y15); \
	STOREHI(offs+56, masks+7, Z15)

// GATHERV8 loads the velocities of both sides, and their x deltas.
#define GATHERV8 \
	LOADROWS8(OFFA, 0); \
	TRANSPOSE8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15, Z0, Z1, Z2, Z22); \
	LOADROWS8(OFFB, 0); \
	TRANSPOSE8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15, Z3, Z4, Z5, Z23)

// SEP8 computes the bias (Z11), mass scale (Z12) and impulse scale (Z13)
// of the non-penetration row of point PT: the part of the row that reads
// the delta positions, not the velocities.
#define SEP8(PT) \
	VMULPD RBX(PT), Z20, Z8; \
	VMULPD RBY(PT), Z21, Z9; \
	VSUBPD Z9, Z8, Z8; \
	VADDPD Z16, Z8, Z8; \
	VMULPD RAX(PT), Z18, Z9; \
	VMULPD RAY(PT), Z19, Z10; \
	VSUBPD Z10, Z9, Z9; \
	VSUBPD Z9, Z8, Z8; \
	VMULPD RBX(PT), Z21, Z9; \
	VMULPD RBY(PT), Z20, Z10; \
	VADDPD Z10, Z9, Z9; \
	VADDPD Z17, Z9, Z9; \
	VMULPD RAX(PT), Z19, Z10; \
	VMULPD RAY(PT), Z18, Z11; \
	VADDPD Z11, Z10, Z10; \
	VSUBPD Z10, Z9, Z9; \
	VMULPD Z6, Z8, Z8; \
	VMULPD Z7, Z9, Z9; \
	VADDPD Z9, Z8, Z8; \
	VADDPD BASESEP(PT), Z8, Z8; \
	VCMPPD $0x1e, PZERO(DX), Z8, K1; \
	VMULPD PINVH(DX), Z8, Z10; \
	VADDPD PDEEP(DX), Z8, Z12; \
	VMINPD PZERO(DX), Z12, Z12; \
	VMULPD Z27, Z12, Z12; \
	VSUBPD Z12, Z8, Z12; \
	VMULPD Z26, Z12, Z11; \
	VMAXPD PNEGMPO(DX), Z11, Z11; \
	VANDPD PBIAS(DX), Z11, Z11; \
	VBLENDMPD Z10, Z11, K1, Z11; \
	VBLENDMPD PONE(DX), Z24, K1, Z12; \
	KNOTW K1, K2; \
	VMOVUPD.Z Z25, K2, Z13

// NORMAL8 solves the non-penetration row of point PT.
#define NORMAL8(PT) \
	SEP8(PT); \
	NORMALTAIL(PT)

// SCATTERAB writes the rows of both sides back.
#define SCATTERAB \
	SCATTER8(Z0, Z1, Z2, Z22, OFFA, MASKA); \
	SCATTER8(Z3, Z4, Z5, Z23, OFFB, MASKB)

// RET512 returns. VZEROUPPER clears Z0-Z15 only, so ZEROHI first zeroes
// the rest the kernels use: no 512-bit state outlives the call (Intel
// cores keep their 512-bit mode while any upper bits are dirty).
#define RET512 \
	ZEROHI; \
	VZEROUPPER; \
	RET

// ZEROHI zeroes Z16-Z31.
#define ZEROHI \
	VPXORQ Z16, Z16, Z16; \
	VPXORQ Z17, Z17, Z17; \
	VPXORQ Z18, Z18, Z18; \
	VPXORQ Z19, Z19, Z19; \
	VPXORQ Z20, Z20, Z20; \
	VPXORQ Z21, Z21, Z21; \
	VPXORQ Z22, Z22, Z22; \
	VPXORQ Z23, Z23, Z23; \
	VPXORQ Z24, Z24, Z24; \
	VPXORQ Z25, Z25, Z25; \
	VPXORQ Z26, Z26, Z26; \
	VPXORQ Z27, Z27, Z27; \
	VPXORQ Z28, Z28, Z28; \
	VPXORQ Z29, Z29, Z29; \
	VPXORQ Z30, Z30, Z30; \
	VPXORQ Z31, Z31, Z31

// func warmWideAVX512(blocks *wideContact, n int, bodies *BodyState, prm *wideParams)
TEXT ·warmWideAVX512(SB), NOSPLIT, $64-32
	MOVQ blocks+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ bodies+16(FP), SI
	MOVQ prm+24(FP), DX
	LEAQ 0(SP), R9
	TESTQ CX, CX
	JLE warmdone

warmloop:
	GATHERV8
	VMOVUPD NX(DI), Z6
	VMOVUPD NY(DI), Z7
	VXORPD PSIGN(DX), Z6, Z12
	LEAQ PT0(DI), R8
	WARM(R8)
	CMPQ POINTS(DI), $1
	JEQ warmscatter
	LEAQ PT1(DI), R8
	WARM(R8)

warmscatter:
	SCATTERAB
	NEXTBLOCK(DI)
	DECQ CX
	JNZ warmloop

warmdone:
	RET512

// BLOCKSTART loads the block at DI for a solve or relax pass: the delta
// positions (Z16 = dx, Z17 = dy of B from A) and rotations (Z18, Z19 of A;
// Z20, Z21 of B), the velocities (GATHERV8), the softness of each lane
// (Z24-Z27) and the normal (Z6, Z7).
#define BLOCKSTART \
	LOADROWS8(OFFA, 32); \
	TRANSPOSE8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15, Z17, Z18, Z19, Z3); \
	VXORPD PSIGN(DX), Z17, Z17; \
	LOADROWS8(OFFB, 32); \
	TRANSPOSE8(Z8, Z9, Z10, Z11, Z12, Z13, Z14, Z15, Z4, Z20, Z21, Z3); \
	VADDPD Z4, Z17, Z17; \
	GATHERV8; \
	VXORPD PSIGN(DX), Z22, Z16; \
	VADDPD Z23, Z16, Z16; \
	SOFTNESS; \
	VMOVUPD NX(DI), Z6; \
	VMOVUPD NY(DI), Z7

// SOFTNESS sets the softness of each lane, as in the AVX2 kernel: heavy
// (K4), then stiff (K3), which wins; relax (K5 clear) uses mass scale 1 and
// impulse scale 0.
#define SOFTNESS \
	VPMOVSXBQ STIFF(DI), Z8; \
	VPTESTMQ Z8, Z8, K3; \
	VPMOVSXBQ HEAVY(DI), Z12; \
	VPTESTMQ Z12, Z12, K4; \
	VANDNPD PDEEPF(DX), Z12, Z27; \
	VMOVUPD PSOFTBR(DX), Z26; \
	VBLENDMPD PHEAVYBR(DX), Z26, K4, Z26; \
	VBLENDMPD PSTIFFBR(DX), Z26, K3, Z26; \
	VMOVUPD PSOFTMS(DX), Z9; \
	VBLENDMPD PHEAVYMS(DX), Z9, K4, Z9; \
	VBLENDMPD PSTIFFMS(DX), Z9, K3, Z9; \
	VMOVUPD PSOFTIS(DX), Z10; \
	VBLENDMPD PHEAVYIS(DX), Z10, K4, Z10; \
	VBLENDMPD PSTIFFIS(DX), Z10, K3, Z10; \
	VMOVUPD PONE(DX), Z24; \
	VBLENDMPD Z9, Z24, K5, Z24; \
	VANDPD PBIAS(DX), Z10, Z25

// Two blocks at a time. A row is a chain of dependent operations through
// the velocities (about 70 cycles), and the four rows of a block are one
// chain, which the CPU overlapped little with the next block's: with the
// rows taken out, BenchmarkSolve/colored-avx512 ran in 0.29 ms instead of
// 0.68. So the pair path computes the separation parts of both blocks'
// rows first (SEP8, into the frame), then runs the rows of the two blocks
// alternately, block 0 on Z0-Z7 and block 1 on Z24-Z31 (V0-V7 renamed, BLK
// = R14), so that two independent chains are in flight. The two blocks of
// one call share no dynamic body (they are one colour), so the order of
// their rows changes no bit.
//
// Frame: 0 the sink of the static lanes' stores; SEPB0 the three outputs
// of SEP8 for block 0's first and second point (in solve order), SEPB1 the
// same for block 1; SAVEB1 block 1's velocities and normal (Z0-Z7) and x
// deltas (Z22, Z23) while block 0 is loaded.
#define SEPB0 64
#define SEPB1 448
#define SAVEB1 832

// SAVEB1REGS puts block 1's velocities and normal (Z0-Z7) and x deltas
// (Z22, Z23) in the frame while block 0 is loaded; LOADB1REGS brings the
// velocities and normal back, to Z24-Z31.
#define SAVEB1REGS \
	VMOVUPD Z0, SAVEB1+0(SP) \
	VMOVUPD Z1, SAVEB1+64(SP) \
	VMOVUPD Z2, SAVEB1+128(SP) \
	VMOVUPD Z3, SAVEB1+192(SP) \
	VMOVUPD Z4, SAVEB1+256(SP) \
	VMOVUPD Z5, SAVEB1+320(SP) \
	VMOVUPD Z6, SAVEB1+384(SP) \
	VMOVUPD Z7, SAVEB1+448(SP) \
	VMOVUPD Z22, SAVEB1+512(SP) \
	VMOVUPD Z23, SAVEB1+576(SP)

#define LOADB1REGS \
	VMOVUPD SAVEB1+0(SP), Z24 \
	VMOVUPD SAVEB1+64(SP), Z25 \
	VMOVUPD SAVEB1+128(SP), Z26 \
	VMOVUPD SAVEB1+192(SP), Z27 \
	VMOVUPD SAVEB1+256(SP), Z28 \
	VMOVUPD SAVEB1+320(SP), Z29 \
	VMOVUPD SAVEB1+384(SP), Z30 \
	VMOVUPD SAVEB1+448(SP), Z31

// SEPOUT stores SEP8's outputs at off(SP).
#define SEPOUT(off) \
	VMOVUPD Z11, off+0(SP); \
	VMOVUPD Z12, off+64(SP); \
	VMOVUPD Z13, off+128(SP)

// SEPIN loads them back for NORMALTAIL.
#define SEPIN(off) \
	VMOVUPD off+0(SP), Z11; \
	VMOVUPD off+64(SP), Z12; \
	VMOVUPD off+128(SP), Z13

// PAIRPOINTS sets R12 and R13 to block 1's points, and R8 and AX to block
// 0's, in solve order, from R14 (block 1). BLOCKSTART clobbers R10-R13
// (LOADROWS8), so it comes after each.
#define PAIRPOINTS \
	LEAQ (PT0-BLOCK)(R14), R8; \
	LEAQ (PT1-BLOCK)(R14), AX; \
	LEAQ PT0(R14), R12; \
	LEAQ PT1(R14), R13; \
	CMPQ PFLIP(DX), $0; \
	JEQ 3(PC); \
	XCHGQ R8, AX; \
	XCHGQ R12, R13

// func solveWideAVX512(blocks *wideContact, n int, bodies *BodyState, prm *wideParams)
TEXT ·solveWideAVX512(SB), $1472-32
	MOVQ blocks+0(FP), DI
	MOVQ n+8(FP), CX
	MOVQ bodies+16(FP), SI
	MOVQ prm+24(FP), DX
	LEAQ 0(SP), R9
	TESTQ CX, CX
	JLE solvedone

	// The lane selects of the stage (bias on, or relax) are the same for
	// every block.
	VMOVUPD PBIAS(DX), Z28
	VPTESTMQ Z28, Z28, K5

solveloop:
	CMPQ CX, $2
	JLT single
	MOVQ DI, R14
	NEXTBLOCK(R14)
	MOVQ POINTS(DI), R10
	CMPQ R10, POINTS(R14)
	JNE single
	CMPQ R10, $1
	JEQ pair1

	// Block 1's separations, then its registers to the frame.
	MOVQ R14, DI
	BLOCKSTART
	PAIRPOINTS
	SEP8(R12)
	SEPOUT(SEPB1)
	SEP8(R13)
	SEPOUT(SEPB1+192)
	SAVEB1REGS
	LEAQ -BLOCK(R14), DI
	BLOCKSTART
	PAIRPOINTS
	SEP8(R8)
	SEPOUT(SEPB0)
	SEP8(AX)
	SEPOUT(SEPB0+192)
	LOADB1REGS

	SEPIN(SEPB0)
	NORMALTAIL(R8)
#include "wide512_block1.h"
	SEPIN(SEPB1)
	NORMALTAIL(R12)
#include "wide512_block0.h"
	SEPIN(SEPB0+192)
	NORMALTAIL(AX)
#include "wide512_block1.h"
	SEPIN(SEPB1+192)
	NORMALTAIL(R13)
#include "wide512_block0.h"
	FRICROW(R8)
#include "wide512_block1.h"
	FRICROW(R12)
#include "wide512_block0.h"
	FRICROW(AX)
#include "wide512_block1.h"
	FRICROW(R13)
#include "wide512_block0.h"
	JMP pairscatter

pair1:
	MOVQ R14, DI
	BLOCKSTART
	LEAQ PT0(DI), R12
	SEP8(R12)
	SEPOUT(SEPB1)
	SAVEB1REGS
	LEAQ -BLOCK1(R14), DI
	BLOCKSTART
	LEAQ PT0(DI), R8
	SEP8(R8)
	SEPOUT(SEPB0)
	LEAQ PT0(R14), R12
	LOADB1REGS

	SEPIN(SEPB0)
	NORMALTAIL(R8)
#include "wide512_block1.h"
	SEPIN(SEPB1)
	NORMALTAIL(R12)
#include "wide512_block0.h"
	FRICROW(R8)
#include "wide512_block1.h"
	FRICROW(R12)
#include "wide512_block0.h"

pairscatter:
	SCATTERAB
	MOVQ R14, DI
	VMOVUPD SAVEB1+512(SP), Z22
	VMOVUPD SAVEB1+576(SP), Z23
	SCATTER8(Z24, Z25, Z26, Z22, OFFA, MASKA)
	SCATTER8(Z27, Z28, Z29, Z23, OFFB, MASKB)
	NEXTBLOCK(DI)
	SUBQ $2, CX
	JNZ solveloop
	JMP solvedone

single:
	BLOCKSTART
	LEAQ PT0(DI), R8
	CMPQ POINTS(DI), $1
	JNE twopoints
	NORMAL8(R8)
	FRICROW(R8)
	JMP solvescatter

twopoints:
	LEAQ PT1(DI), AX
	CMPQ PFLIP(DX), $0
	JEQ noflip
	XCHGQ R8, AX

noflip:
	NORMAL8(R8)
	NORMAL8(AX)
	FRICROW(R8)
	FRICROW(AX)

solvescatter:
	SCATTERAB
	NEXTBLOCK(DI)
	DECQ CX
	JNZ solveloop

solvedone:
	RET512
