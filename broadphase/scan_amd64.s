//go:build amd64 && !purego

#include "textflag.h"

// LOADMEMBERS loads the five arrays of the memberPtrs m into R8 (minX), R9
// (minY), R10 (maxX), R11 (maxY) and R12 (key).
#define LOADMEMBERS \
	MOVQ m+0(FP), AX; \
	MOVQ 0(AX), R8; \
	MOVQ 8(AX), R9; \
	MOVQ 16(AX), R10; \
	MOVQ 24(AX), R11; \
	MOVQ 32(AX), R12

// LOADQUERY broadcasts the query box a (Min.X, Min.Y, Max.X, Max.Y into
// x0, y0, x1, y1), base and minKey into vector registers, points DI at dst
// and zeroes BX, the count of pairs kept.
#define LOADQUERY(x0, y0, x1, y1, b, k) \
	MOVQ a+24(FP), AX; \
	VBROADCASTSD 0(AX), x0; \
	VBROADCASTSD 8(AX), y0; \
	VBROADCASTSD 16(AX), x1; \
	VBROADCASTSD 24(AX), y1; \
	VPBROADCASTQ base+32(FP), b; \
	VPBROADCASTQ minKey+40(FP), k; \
	MOVQ dst+48(FP), DI; \
	XORQ BX, BX

// TEST8 sets K1 to the lanes of mask whose member overlaps the query and
// whose key (Z8) is at least minKey: a.Max.X >= minX, a.Min.X <= maxX,
// a.Max.Y >= minY and a.Min.Y <= maxY, each compare writing only where the
// ones before held.
#define TEST8(mask, mnx, mxx, mny, mxy) \
	VCMPPD  $0x1D, mnx, Z2, mask, K1; \
	VCMPPD  $0x12, mxx, Z0, K1, K1; \
	VCMPPD  $0x1D, mny, Z3, K1, K1; \
	VCMPPD  $0x12, mxy, Z1, K1, K1; \
	VPCMPUQ $5, Z5, Z8, K1, K1

// KEEP8 adds base to the keys in Z8, packs the lanes of K1 to the front of
// Z9, stores the whole register at the next free pair and counts the kept.
#define KEEP8 \
	VPADDQ      Z4, Z8, Z8; \
	VPCOMPRESSQ Z8, K1, Z9; \
	VMOVDQU64   Z9, (DI)(BX*8); \
	KMOVB       K1, AX; \
	POPCNTL     AX, AX; \
	ADDQ        AX, BX

// TEST4 is TEST8 on four lanes with vector masks: Y6 gets all ones in the
// lanes that pass, the key (Y8) compared signed (keys and minKey are below
// 2^63, where signed and unsigned order agree).
#define TEST4(mnx, mxx, mny, mxy) \
	VCMPPD   $0x1D, mnx, Y2, Y6; \
	VCMPPD   $0x12, mxx, Y0, Y7; \
	VANDPD   Y7, Y6, Y6; \
	VCMPPD   $0x1D, mny, Y3, Y7; \
	VANDPD   Y7, Y6, Y6; \
	VCMPPD   $0x12, mxy, Y1, Y7; \
	VANDPD   Y7, Y6, Y6; \
	VPCMPGTQ Y8, Y5, Y7; \
	VPANDN   Y6, Y7, Y6

// KEEP4 is KEEP8 on the lanes of Y6, packed by the compress4 entry (R13) of
// their bits.
#define KEEP4 \
	VPADDQ    Y4, Y8, Y8; \
	VMOVMSKPD Y6, AX; \
	MOVQ      AX, SI; \
	SHLQ      $5, SI; \
	VMOVDQU   (R13)(SI*1), Y7; \
	VPERMD    Y8, Y7, Y9; \
	VMOVDQU   Y9, (DI)(BX*8); \
	POPCNTL   AX, AX; \
	ADDQ      AX, BX

// The AVX-512 member test of scan (query.go): eight members per pass, one
// opmask bit per member. The five tests are chained through the mask (each
// compare writes only where the ones before held), the kept keys plus base
// are packed to the front of a register (VPCOMPRESSQ into a register, then
// one whole store: compressing straight into memory is microcoded on some
// CPUs), and the count of kept pairs advances the output. The last pass of
// a range loads with zero-masking, which reads nothing past the range.
//
// Predicates: 0x12 is LE_OQ and 0x1D is GE_OQ, ordered and quiet, false
// when either side is NaN, as Go's <=; VPCMPUQ 5 is unsigned >=.
//
// func scanRangesAVX512(m *memberPtrs, rg *[2]int32, nr int, a *components.AABB, base, minKey uint64, dst *Pair) int
TEXT ·scanRangesAVX512(SB), NOSPLIT, $0-64
	LOADMEMBERS
	MOVQ rg+8(FP), SI
	MOVQ nr+16(FP), R13
	LOADQUERY(Z0, Z1, Z2, Z3, Z4, Z5)
	KXNORB K3, K3, K3 // all eight lanes: the full passes' first mask

nextrange:
	TESTQ R13, R13
	JZ    done
	MOVLQSX 0(SI), DX // first member
	MOVLQSX 4(SI), CX // end
	ADDQ  $8, SI
	DECQ  R13

full:
	LEAQ 8(DX), AX
	CMPQ AX, CX
	JGT  tail
	VMOVDQU64 (R12)(DX*8), Z8
	TEST8(K3, (R8)(DX*8), (R10)(DX*8), (R9)(DX*8), (R11)(DX*8))
	KEEP8
	ADDQ      $8, DX
	JMP       full

tail:
	MOVQ CX, AX
	SUBQ DX, AX // members left, 0 to 7
	JZ   nextrange
	MOVQ AX, CX
	MOVL $1, AX
	SHLL CX, AX
	DECL AX
	KMOVB AX, K2
	VMOVUPD.Z   (R8)(DX*8), K2, Z10
	VMOVUPD.Z   (R10)(DX*8), K2, Z11
	VMOVUPD.Z   (R9)(DX*8), K2, Z12
	VMOVUPD.Z   (R11)(DX*8), K2, Z13
	VMOVDQU64.Z (R12)(DX*8), K2, Z8
	TEST8(K2, Z10, Z11, Z12, Z13)
	KEEP8
	JMP         nextrange

done:
	VZEROUPPER
	MOVQ BX, ret+56(FP)
	RET

// The AVX2 member test: four members per pass, the same five tests as
// lane masks ANDed together (the key compare is signed, VPCMPGTQ: keys and
// minKey are below 2^63, so it orders them as unsigned would), then
// VMOVMSKPD for the kept lanes' bits. AVX2 has no compress: a table of 16
// VPERMD index vectors (compress4) moves the kept pairs to the front, and a
// whole register is stored. The last pass of a range loads with VMASKMOVPD
// and VPMASKMOVQ, which read nothing past it (tail4 holds the lane masks).
//
// func scanRangesAVX2(m *memberPtrs, rg *[2]int32, nr int, a *components.AABB, base, minKey uint64, dst *Pair) int
TEXT ·scanRangesAVX2(SB), NOSPLIT, $0-64
	LOADMEMBERS
	LEAQ ·compress4(SB), R13
	LOADQUERY(Y0, Y1, Y2, Y3, Y4, Y5)

nextrange2:
	CMPQ nr+16(FP), $0
	JEQ  done2
	DECQ nr+16(FP)
	MOVQ rg+8(FP), SI
	MOVLQSX 0(SI), DX // first member
	MOVLQSX 4(SI), CX // end
	ADDQ $8, rg+8(FP)

full2:
	LEAQ 4(DX), AX
	CMPQ AX, CX
	JGT  tail2
	VMOVDQU (R12)(DX*8), Y8
	TEST4((R8)(DX*8), (R10)(DX*8), (R9)(DX*8), (R11)(DX*8))
	KEEP4
	ADDQ    $4, DX
	JMP     full2

tail2:
	MOVQ CX, AX
	SUBQ DX, AX // members left, 0 to 3
	JZ   nextrange2
	SHLQ $5, AX
	LEAQ ·tail4(SB), SI
	VMOVDQU    (SI)(AX*1), Y10
	VMASKMOVPD (R8)(DX*8), Y10, Y11
	VMASKMOVPD (R10)(DX*8), Y10, Y12
	VMASKMOVPD (R9)(DX*8), Y10, Y13
	VMASKMOVPD (R11)(DX*8), Y10, Y14
	VPMASKMOVQ (R12)(DX*8), Y10, Y8
	TEST4(Y11, Y12, Y13, Y14)
	VANDPD     Y10, Y6, Y6 // only the lanes in the range
	KEEP4
	JMP        nextrange2

done2:
	VZEROUPPER
	MOVQ BX, ret+56(FP)
	RET

// compress4 holds, for each 4-bit mask of kept lanes, the VPERMD indices
// that move the kept lanes' quadwords (dword pairs) to the front, in order.
DATA ·compress4+0(SB)/8, $0x0000000000000000
DATA ·compress4+8(SB)/8, $0x0000000000000000
DATA ·compress4+16(SB)/8, $0x0000000000000000
DATA ·compress4+24(SB)/8, $0x0000000000000000
DATA ·compress4+32(SB)/8, $0x0000000100000000
DATA ·compress4+40(SB)/8, $0x0000000000000000
DATA ·compress4+48(SB)/8, $0x0000000000000000
DATA ·compress4+56(SB)/8, $0x0000000000000000
DATA ·compress4+64(SB)/8, $0x0000000300000002
DATA ·compress4+72(SB)/8, $0x0000000000000000
DATA ·compress4+80(SB)/8, $0x0000000000000000
DATA ·compress4+88(SB)/8, $0x0000000000000000
DATA ·compress4+96(SB)/8, $0x0000000100000000
DATA ·compress4+104(SB)/8, $0x0000000300000002
DATA ·compress4+112(SB)/8, $0x0000000000000000
DATA ·compress4+120(SB)/8, $0x0000000000000000
DATA ·compress4+128(SB)/8, $0x0000000500000004
DATA ·compress4+136(SB)/8, $0x0000000000000000
DATA ·compress4+144(SB)/8, $0x0000000000000000
DATA ·compress4+152(SB)/8, $0x0000000000000000
DATA ·compress4+160(SB)/8, $0x0000000100000000
DATA ·compress4+168(SB)/8, $0x0000000500000004
DATA ·compress4+176(SB)/8, $0x0000000000000000
DATA ·compress4+184(SB)/8, $0x0000000000000000
DATA ·compress4+192(SB)/8, $0x0000000300000002
DATA ·compress4+200(SB)/8, $0x0000000500000004
DATA ·compress4+208(SB)/8, $0x0000000000000000
DATA ·compress4+216(SB)/8, $0x0000000000000000
DATA ·compress4+224(SB)/8, $0x0000000100000000
DATA ·compress4+232(SB)/8, $0x0000000300000002
DATA ·compress4+240(SB)/8, $0x0000000500000004
DATA ·compress4+248(SB)/8, $0x0000000000000000
DATA ·compress4+256(SB)/8, $0x0000000700000006
DATA ·compress4+264(SB)/8, $0x0000000000000000
DATA ·compress4+272(SB)/8, $0x0000000000000000
DATA ·compress4+280(SB)/8, $0x0000000000000000
DATA ·compress4+288(SB)/8, $0x0000000100000000
DATA ·compress4+296(SB)/8, $0x0000000700000006
DATA ·compress4+304(SB)/8, $0x0000000000000000
DATA ·compress4+312(SB)/8, $0x0000000000000000
DATA ·compress4+320(SB)/8, $0x0000000300000002
DATA ·compress4+328(SB)/8, $0x0000000700000006
DATA ·compress4+336(SB)/8, $0x0000000000000000
DATA ·compress4+344(SB)/8, $0x0000000000000000
DATA ·compress4+352(SB)/8, $0x0000000100000000
DATA ·compress4+360(SB)/8, $0x0000000300000002
DATA ·compress4+368(SB)/8, $0x0000000700000006
DATA ·compress4+376(SB)/8, $0x0000000000000000
DATA ·compress4+384(SB)/8, $0x0000000500000004
DATA ·compress4+392(SB)/8, $0x0000000700000006
DATA ·compress4+400(SB)/8, $0x0000000000000000
DATA ·compress4+408(SB)/8, $0x0000000000000000
DATA ·compress4+416(SB)/8, $0x0000000100000000
DATA ·compress4+424(SB)/8, $0x0000000500000004
DATA ·compress4+432(SB)/8, $0x0000000700000006
DATA ·compress4+440(SB)/8, $0x0000000000000000
DATA ·compress4+448(SB)/8, $0x0000000300000002
DATA ·compress4+456(SB)/8, $0x0000000500000004
DATA ·compress4+464(SB)/8, $0x0000000700000006
DATA ·compress4+472(SB)/8, $0x0000000000000000
DATA ·compress4+480(SB)/8, $0x0000000100000000
DATA ·compress4+488(SB)/8, $0x0000000300000002
DATA ·compress4+496(SB)/8, $0x0000000500000004
DATA ·compress4+504(SB)/8, $0x0000000700000006
GLOBL ·compress4(SB), RODATA|NOPTR, $512

// tail4 holds, for r = 0 to 3 members left, the lane mask of the first r.
DATA ·tail4+0(SB)/8, $0x0000000000000000
DATA ·tail4+8(SB)/8, $0x0000000000000000
DATA ·tail4+16(SB)/8, $0x0000000000000000
DATA ·tail4+24(SB)/8, $0x0000000000000000
DATA ·tail4+32(SB)/8, $0xffffffffffffffff
DATA ·tail4+40(SB)/8, $0x0000000000000000
DATA ·tail4+48(SB)/8, $0x0000000000000000
DATA ·tail4+56(SB)/8, $0x0000000000000000
DATA ·tail4+64(SB)/8, $0xffffffffffffffff
DATA ·tail4+72(SB)/8, $0xffffffffffffffff
DATA ·tail4+80(SB)/8, $0x0000000000000000
DATA ·tail4+88(SB)/8, $0x0000000000000000
DATA ·tail4+96(SB)/8, $0xffffffffffffffff
DATA ·tail4+104(SB)/8, $0xffffffffffffffff
DATA ·tail4+112(SB)/8, $0xffffffffffffffff
DATA ·tail4+120(SB)/8, $0x0000000000000000
GLOBL ·tail4(SB), RODATA|NOPTR, $128
