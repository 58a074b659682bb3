//go:build amd64 && !purego

#include "textflag.h"

// Both loops start at the line that holds p, so that a range that does
// not begin on a line boundary still has its last line prefetched.

// func Read(p unsafe.Pointer, n uintptr)
TEXT ·Read(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	ADDQ AX, CX
	ANDQ $-64, AX

read:
	CMPQ AX, CX
	JAE  readDone
	PREFETCHT0 (AX)
	ADDQ $64, AX
	JMP  read

readDone:
	RET

// func writeLines(p unsafe.Pointer, n uintptr)
TEXT ·writeLines(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	ADDQ AX, CX
	ANDQ $-64, AX

write:
	CMPQ AX, CX
	JAE  writeDone
	// PREFETCHW (AX), which the Go assembler does not know: 0F 0D /1.
	BYTE $0x0F; BYTE $0x0D; BYTE $0x08
	ADDQ $64, AX
	JMP  write

writeDone:
	RET
