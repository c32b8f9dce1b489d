#include "textflag.h"

// func lineMasks(b *[64]byte) (newlines, tabs uint64)
//
// Bit j of newlines is set when b[j] is '\n', bit j of tabs when b[j] is
// '\t'. SSE2, which every amd64 processor has: four 16-byte compares a byte.
TEXT ·lineMasks(SB), NOSPLIT, $0-24
	MOVQ	b+0(FP), SI
	MOVQ	$0x0a0a0a0a0a0a0a0a, AX
	MOVQ	AX, X0
	PUNPCKLQDQ	X0, X0
	MOVQ	$0x0909090909090909, AX
	MOVQ	AX, X1
	PUNPCKLQDQ	X1, X1

	MOVOU	0(SI), X2
	MOVOU	X2, X3
	PCMPEQB	X0, X2
	PCMPEQB	X1, X3
	PMOVMSKB	X2, AX
	PMOVMSKB	X3, BX

	MOVOU	16(SI), X2
	MOVOU	X2, X3
	PCMPEQB	X0, X2
	PCMPEQB	X1, X3
	PMOVMSKB	X2, CX
	PMOVMSKB	X3, DX
	SHLQ	$16, CX
	SHLQ	$16, DX
	ORQ	CX, AX
	ORQ	DX, BX

	MOVOU	32(SI), X2
	MOVOU	X2, X3
	PCMPEQB	X0, X2
	PCMPEQB	X1, X3
	PMOVMSKB	X2, CX
	PMOVMSKB	X3, DX
	SHLQ	$32, CX
	SHLQ	$32, DX
	ORQ	CX, AX
	ORQ	DX, BX

	MOVOU	48(SI), X2
	MOVOU	X2, X3
	PCMPEQB	X0, X2
	PCMPEQB	X1, X3
	PMOVMSKB	X2, CX
	PMOVMSKB	X3, DX
	SHLQ	$48, CX
	SHLQ	$48, DX
	ORQ	CX, AX
	ORQ	DX, BX

	MOVQ	AX, newlines+8(FP)
	MOVQ	BX, tabs+16(FP)
	RET
