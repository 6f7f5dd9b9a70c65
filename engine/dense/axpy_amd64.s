#include "textflag.h"

// AVX2 versions of axpyGo, axpy4Go and axpy8Go (axpy.go): four elements per
// YMM register, main loops over eight elements, then one group of four,
// then scalar VEX steps. Each element sees the Go definition's multiplies
// and adds in the same order, each rounded once (no FMA), so the results
// are bit-identical to the Go loops.

// func axpyAVX2(n int, a float64, x, y *float64)
TEXT ·axpyAVX2(SB), NOSPLIT, $0-32
	MOVQ         n+0(FP), CX
	VBROADCASTSD a+8(FP), Y0
	MOVQ         x+16(FP), SI
	MOVQ         y+24(FP), DI
	XORQ         AX, AX
	MOVQ         CX, BX
	ANDQ         $-8, BX
	JZ           axpy_four

axpy_eight:
	VMULPD  (SI)(AX*8), Y0, Y1
	VMULPD  32(SI)(AX*8), Y0, Y2
	VADDPD  (DI)(AX*8), Y1, Y1
	VADDPD  32(DI)(AX*8), Y2, Y2
	VMOVUPD Y1, (DI)(AX*8)
	VMOVUPD Y2, 32(DI)(AX*8)
	ADDQ    $8, AX
	CMPQ    AX, BX
	JL      axpy_eight

axpy_four:
	MOVQ    CX, BX
	ANDQ    $-4, BX
	CMPQ    AX, BX
	JGE     axpy_one
	VMULPD  (SI)(AX*8), Y0, Y1
	VADDPD  (DI)(AX*8), Y1, Y1
	VMOVUPD Y1, (DI)(AX*8)
	ADDQ    $4, AX

axpy_one:
	CMPQ   AX, CX
	JGE    axpy_done
	VMULSD (SI)(AX*8), X0, X1
	VADDSD (DI)(AX*8), X1, X1
	VMOVSD X1, (DI)(AX*8)
	INCQ   AX
	JMP    axpy_one

axpy_done:
	VZEROUPPER
	RET

// func axpy4AVX2(n int, y *float64, a *[4]float64, x0, x1, x2, x3 *float64)
TEXT ·axpy4AVX2(SB), NOSPLIT, $0-56
	MOVQ         n+0(FP), CX
	MOVQ         y+8(FP), DI
	MOVQ         a+16(FP), SI
	VBROADCASTSD (SI), Y0
	VBROADCASTSD 8(SI), Y1
	VBROADCASTSD 16(SI), Y2
	VBROADCASTSD 24(SI), Y3
	MOVQ         x0+24(FP), R8
	MOVQ         x1+32(FP), R9
	MOVQ         x2+40(FP), R10
	MOVQ         x3+48(FP), R11
	XORQ         AX, AX
	MOVQ         CX, BX
	ANDQ         $-8, BX
	JZ           axpy4_four

axpy4_eight:
	VMULPD  (R8)(AX*8), Y0, Y4
	VMULPD  32(R8)(AX*8), Y0, Y6
	VMULPD  (R9)(AX*8), Y1, Y5
	VMULPD  32(R9)(AX*8), Y1, Y7
	VADDPD  Y5, Y4, Y4
	VADDPD  Y7, Y6, Y6
	VMULPD  (R10)(AX*8), Y2, Y5
	VMULPD  32(R10)(AX*8), Y2, Y7
	VADDPD  Y5, Y4, Y4
	VADDPD  Y7, Y6, Y6
	VMULPD  (R11)(AX*8), Y3, Y5
	VMULPD  32(R11)(AX*8), Y3, Y7
	VADDPD  Y5, Y4, Y4
	VADDPD  Y7, Y6, Y6
	VADDPD  (DI)(AX*8), Y4, Y4
	VADDPD  32(DI)(AX*8), Y6, Y6
	VMOVUPD Y4, (DI)(AX*8)
	VMOVUPD Y6, 32(DI)(AX*8)
	ADDQ    $8, AX
	CMPQ    AX, BX
	JL      axpy4_eight

axpy4_four:
	MOVQ    CX, BX
	ANDQ    $-4, BX
	CMPQ    AX, BX
	JGE     axpy4_one
	VMULPD  (R8)(AX*8), Y0, Y4
	VMULPD  (R9)(AX*8), Y1, Y5
	VADDPD  Y5, Y4, Y4
	VMULPD  (R10)(AX*8), Y2, Y5
	VADDPD  Y5, Y4, Y4
	VMULPD  (R11)(AX*8), Y3, Y5
	VADDPD  Y5, Y4, Y4
	VADDPD  (DI)(AX*8), Y4, Y4
	VMOVUPD Y4, (DI)(AX*8)
	ADDQ    $4, AX

axpy4_one:
	CMPQ   AX, CX
	JGE    axpy4_done
	VMULSD (R8)(AX*8), X0, X4
	VMULSD (R9)(AX*8), X1, X5
	VADDSD X5, X4, X4
	VMULSD (R10)(AX*8), X2, X5
	VADDSD X5, X4, X4
	VMULSD (R11)(AX*8), X3, X5
	VADDSD X5, X4, X4
	VADDSD (DI)(AX*8), X4, X4
	VMOVSD X4, (DI)(AX*8)
	INCQ   AX
	JMP    axpy4_one

axpy4_done:
	VZEROUPPER
	RET

// func axpy8AVX2(n int, y *float64, a *[8]float64, x *[8]*float64)
TEXT ·axpy8AVX2(SB), NOSPLIT, $0-32
	MOVQ         n+0(FP), CX
	MOVQ         y+8(FP), DI
	MOVQ         a+16(FP), SI
	VBROADCASTSD (SI), Y0
	VBROADCASTSD 8(SI), Y1
	VBROADCASTSD 16(SI), Y2
	VBROADCASTSD 24(SI), Y3
	VBROADCASTSD 32(SI), Y4
	VBROADCASTSD 40(SI), Y5
	VBROADCASTSD 48(SI), Y6
	VBROADCASTSD 56(SI), Y7
	MOVQ         x+24(FP), SI
	MOVQ         8(SI), DX
	MOVQ         16(SI), BX
	MOVQ         24(SI), R8
	MOVQ         32(SI), R9
	MOVQ         40(SI), R10
	MOVQ         48(SI), R11
	MOVQ         56(SI), R12
	MOVQ         (SI), SI
	XORQ         AX, AX
	MOVQ         CX, R13
	ANDQ         $-4, R13
	JZ           axpy8_one

axpy8_four:
	VMULPD  (SI)(AX*8), Y0, Y8
	VMULPD  (DX)(AX*8), Y1, Y9
	VADDPD  Y9, Y8, Y8
	VMULPD  (BX)(AX*8), Y2, Y9
	VADDPD  Y9, Y8, Y8
	VMULPD  (R8)(AX*8), Y3, Y9
	VADDPD  Y9, Y8, Y8
	VMULPD  (R9)(AX*8), Y4, Y10
	VMULPD  (R10)(AX*8), Y5, Y11
	VADDPD  Y11, Y10, Y10
	VMULPD  (R11)(AX*8), Y6, Y11
	VADDPD  Y11, Y10, Y10
	VMULPD  (R12)(AX*8), Y7, Y11
	VADDPD  Y11, Y10, Y10
	VADDPD  Y10, Y8, Y8
	VADDPD  (DI)(AX*8), Y8, Y8
	VMOVUPD Y8, (DI)(AX*8)
	ADDQ    $4, AX
	CMPQ    AX, R13
	JL      axpy8_four

axpy8_one:
	CMPQ   AX, CX
	JGE    axpy8_done
	VMULSD (SI)(AX*8), X0, X8
	VMULSD (DX)(AX*8), X1, X9
	VADDSD X9, X8, X8
	VMULSD (BX)(AX*8), X2, X9
	VADDSD X9, X8, X8
	VMULSD (R8)(AX*8), X3, X9
	VADDSD X9, X8, X8
	VMULSD (R9)(AX*8), X4, X10
	VMULSD (R10)(AX*8), X5, X11
	VADDSD X11, X10, X10
	VMULSD (R11)(AX*8), X6, X11
	VADDSD X11, X10, X10
	VMULSD (R12)(AX*8), X7, X11
	VADDSD X11, X10, X10
	VADDSD X10, X8, X8
	VADDSD (DI)(AX*8), X8, X8
	VMOVSD X8, (DI)(AX*8)
	INCQ   AX
	JMP    axpy8_one

axpy8_done:
	VZEROUPPER
	RET
