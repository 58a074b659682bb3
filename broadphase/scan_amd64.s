//go:build amd64 && !purego

#include "textflag.h"

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
	MOVQ m+0(FP), AX
	MOVQ 0(AX), R8   // minX
	MOVQ 8(AX), R9   // minY
	MOVQ 16(AX), R10 // maxX
	MOVQ 24(AX), R11 // maxY
	MOVQ 32(AX), R12 // key
	MOVQ rg+8(FP), SI
	MOVQ nr+16(FP), R13
	MOVQ a+24(FP), AX
	VBROADCASTSD 0(AX), Z0  // a.Min.X
	VBROADCASTSD 8(AX), Z1  // a.Min.Y
	VBROADCASTSD 16(AX), Z2 // a.Max.X
	VBROADCASTSD 24(AX), Z3 // a.Max.Y
	VPBROADCASTQ base+32(FP), Z4
	VPBROADCASTQ minKey+40(FP), Z5
	MOVQ dst+48(FP), DI
	XORQ BX, BX // pairs kept

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
	VCMPPD      $0x1D, (R8)(DX*8), Z2, K1      // a.Max.X >= minX
	VCMPPD      $0x12, (R10)(DX*8), Z0, K1, K1 // a.Min.X <= maxX
	VCMPPD      $0x1D, (R9)(DX*8), Z3, K1, K1  // a.Max.Y >= minY
	VCMPPD      $0x12, (R11)(DX*8), Z1, K1, K1 // a.Min.Y <= maxY
	VMOVDQU64   (R12)(DX*8), Z8
	VPCMPUQ     $5, Z5, Z8, K1, K1             // key >= minKey
	VPADDQ      Z4, Z8, Z8
	VPCOMPRESSQ Z8, K1, Z9
	VMOVDQU64   Z9, (DI)(BX*8)
	KMOVB       K1, AX
	POPCNTL     AX, AX
	ADDQ        AX, BX
	ADDQ        $8, DX
	JMP         full

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
	VCMPPD      $0x1D, Z10, Z2, K2, K1
	VCMPPD      $0x12, Z11, Z0, K1, K1
	VCMPPD      $0x1D, Z12, Z3, K1, K1
	VCMPPD      $0x12, Z13, Z1, K1, K1
	VPCMPUQ     $5, Z5, Z8, K1, K1
	VPADDQ      Z4, Z8, Z8
	VPCOMPRESSQ Z8, K1, Z9
	VMOVDQU64   Z9, (DI)(BX*8)
	KMOVB       K1, AX
	POPCNTL     AX, AX
	ADDQ        AX, BX
	JMP         nextrange

done:
	VZEROUPPER
	MOVQ BX, ret+56(FP)
	RET
