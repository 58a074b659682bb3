//go:build amd64 && !purego

#include "textflag.h"

// func Read(p unsafe.Pointer, n uintptr)
TEXT ·Read(SB), NOSPLIT, $0-16
	MOVQ p+0(FP), AX
	MOVQ n+8(FP), CX
	ADDQ AX, CX

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

write:
	CMPQ AX, CX
	JAE  writeDone
	// PREFETCHW (AX), which the Go assembler does not know: 0F 0D /1.
	BYTE $0x0F; BYTE $0x0D; BYTE $0x08
	ADDQ $64, AX
	JMP  write

writeDone:
	RET

// func cpuid(eaxArg, ecxArg uint32) (eax, ebx, ecx, edx uint32)
TEXT ·cpuid(SB), NOSPLIT, $0-24
	MOVL eaxArg+0(FP), AX
	MOVL ecxArg+4(FP), CX
	CPUID
	MOVL AX, eax+8(FP)
	MOVL BX, ebx+12(FP)
	MOVL CX, ecx+16(FP)
	MOVL DX, edx+20(FP)
	RET
