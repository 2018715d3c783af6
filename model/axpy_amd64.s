#include "textflag.h"

// func add4SSE(acc *float32, n int, xs *[4]float32, a, b, c, d *float32)
//
// For j < n (a multiple of 4): acc[j] = (((acc[j] + xs[0]*a[j]) + xs[1]*b[j]) +
// xs[2]*c[j]) + xs[3]*d[j], four hidden units per SSE instruction. MULPS and ADDPS round
// each lane as MULSS and ADDSS do, so the sums are those of the scalar loop.
TEXT ·add4SSE(SB), NOSPLIT, $0-56
	MOVQ	acc+0(FP), DI
	MOVQ	n+8(FP), CX
	MOVQ	xs+16(FP), SI
	MOVQ	a+24(FP), R8
	MOVQ	b+32(FP), R9
	MOVQ	c+40(FP), R10
	MOVQ	d+48(FP), R11
	MOVSS	0(SI), X0
	SHUFPS	$0, X0, X0
	MOVSS	4(SI), X1
	SHUFPS	$0, X1, X1
	MOVSS	8(SI), X2
	SHUFPS	$0, X2, X2
	MOVSS	12(SI), X3
	SHUFPS	$0, X3, X3
	SHLQ	$2, CX
	XORQ	AX, AX

loop:
	CMPQ	AX, CX
	JGE	done
	MOVUPS	(DI)(AX*1), X4
	MOVUPS	(R8)(AX*1), X5
	MULPS	X0, X5
	ADDPS	X5, X4
	MOVUPS	(R9)(AX*1), X6
	MULPS	X1, X6
	ADDPS	X6, X4
	MOVUPS	(R10)(AX*1), X7
	MULPS	X2, X7
	ADDPS	X7, X4
	MOVUPS	(R11)(AX*1), X8
	MULPS	X3, X8
	ADDPS	X8, X4
	MOVUPS	X4, (DI)(AX*1)
	ADDQ	$16, AX
	JMP	loop

done:
	RET
