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
	MOVQ m+0(FP), AX
	MOVQ 0(AX), R8   // minX
	MOVQ 8(AX), R9   // minY
	MOVQ 16(AX), R10 // maxX
	MOVQ 24(AX), R11 // maxY
	MOVQ 32(AX), R12 // key
	LEAQ ·compress4(SB), R13
	MOVQ a+24(FP), AX
	VBROADCASTSD 0(AX), Y0  // a.Min.X
	VBROADCASTSD 8(AX), Y1  // a.Min.Y
	VBROADCASTSD 16(AX), Y2 // a.Max.X
	VBROADCASTSD 24(AX), Y3 // a.Max.Y
	VPBROADCASTQ base+32(FP), Y4
	VPBROADCASTQ minKey+40(FP), Y5
	MOVQ dst+48(FP), DI
	XORQ BX, BX // pairs kept

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
	VCMPPD    $0x1D, (R8)(DX*8), Y2, Y6  // a.Max.X >= minX
	VCMPPD    $0x12, (R10)(DX*8), Y0, Y7 // a.Min.X <= maxX
	VANDPD    Y7, Y6, Y6
	VCMPPD    $0x1D, (R9)(DX*8), Y3, Y7  // a.Max.Y >= minY
	VANDPD    Y7, Y6, Y6
	VCMPPD    $0x12, (R11)(DX*8), Y1, Y7 // a.Min.Y <= maxY
	VANDPD    Y7, Y6, Y6
	VMOVDQU   (R12)(DX*8), Y8
	VPCMPGTQ  Y8, Y5, Y7                 // minKey > key
	VPANDN    Y6, Y7, Y6                 // and key >= minKey
	VPADDQ    Y4, Y8, Y8
	VMOVMSKPD Y6, AX
	MOVQ      AX, SI
	SHLQ      $5, SI
	VMOVDQU   (R13)(SI*1), Y7
	VPERMD    Y8, Y7, Y9
	VMOVDQU   Y9, (DI)(BX*8)
	POPCNTL   AX, AX
	ADDQ      AX, BX
	ADDQ      $4, DX
	JMP       full2

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
	VCMPPD     $0x1D, Y11, Y2, Y6
	VANDPD     Y10, Y6, Y6
	VCMPPD     $0x12, Y12, Y0, Y7
	VANDPD     Y7, Y6, Y6
	VCMPPD     $0x1D, Y13, Y3, Y7
	VANDPD     Y7, Y6, Y6
	VCMPPD     $0x12, Y14, Y1, Y7
	VANDPD     Y7, Y6, Y6
	VPCMPGTQ   Y8, Y5, Y7
	VPANDN     Y6, Y7, Y6
	VPADDQ     Y4, Y8, Y8
	VMOVMSKPD  Y6, AX
	MOVQ       AX, SI
	SHLQ       $5, SI
	VMOVDQU    (R13)(SI*1), Y7
	VPERMD     Y8, Y7, Y9
	VMOVDQU    Y9, (DI)(BX*8)
	POPCNTL    AX, AX
	ADDQ       AX, BX
	MOVQ       CX, DX
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
