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

// Register-blocked tiles of MulSmall (mulTilesAVX2, dense.go): a tile of
// dst stays in YMM accumulators while the kernel walks a range of x, so
// each row of B loaded serves several rows of A and dst is read and written
// once per call rather than once per group. For each element the
// operations are those of axpy4AVX2 and axpyAVX2 in the same order and with
// the same operand order (so even the NaN that wins when two NaNs meet is
// the same): per group g = ((a0·b0 + a1·b1) + a2·b2) + a3·b3, then d = g + d;
// per single x, d = a·b + d.

// ROW2X8 adds one group of four x to the accumulators acc0, acc1 of one
// row of the 2×8 tile whose A entries start at (r); the four rows of B are
// in Y4..Y11 (two registers each). Y12 holds a broadcast a_q, Y13 and Y14
// the two halves of g, Y15 a product.
#define ROW2X8(r, acc0, acc1) \
	VBROADCASTSD (r), Y12;     \
	VMULPD       Y4, Y12, Y13;  \
	VMULPD       Y5, Y12, Y14;  \
	VBROADCASTSD 8(r), Y12;    \
	VMULPD       Y6, Y12, Y15;  \
	VADDPD       Y15, Y13, Y13; \
	VMULPD       Y7, Y12, Y15;  \
	VADDPD       Y15, Y14, Y14; \
	VBROADCASTSD 16(r), Y12;   \
	VMULPD       Y8, Y12, Y15;  \
	VADDPD       Y15, Y13, Y13; \
	VMULPD       Y9, Y12, Y15;  \
	VADDPD       Y15, Y14, Y14; \
	VBROADCASTSD 24(r), Y12;   \
	VMULPD       Y10, Y12, Y15; \
	VADDPD       Y15, Y13, Y13; \
	VMULPD       Y11, Y12, Y15; \
	VADDPD       Y15, Y14, Y14; \
	VADDPD       acc0, Y13, acc0; \
	VADDPD       acc1, Y14, acc1

// ONE2X8 adds a·B[x, 0:8] (B's row in Y4, Y5) for the single x of one row.
#define ONE2X8(r, acc0, acc1) \
	VBROADCASTSD (r), Y12;       \
	VMULPD       Y4, Y12, Y13;    \
	VMULPD       Y5, Y12, Y14;    \
	VADDPD       acc0, Y13, acc0; \
	VADDPD       acc1, Y14, acc1

// func mulTile2x8AVX2(groups, singles int, a *float64, lda int, b *float64, ldb int, d *float64, ldd int)
//
// SI and R8 walk rows 0 and 1 of A from column x; BX walks row x of B (rows
// x+1, x+2, x+3 at R10, 2·R10, R11 = 3·R10 bytes further); DI is row 0 of
// the dst tile, row 1 at R12 bytes further.
TEXT ·mulTile2x8AVX2(SB), NOSPLIT, $0-64
	MOVQ    groups+0(FP), CX
	MOVQ    singles+8(FP), DX
	MOVQ    a+16(FP), SI
	MOVQ    lda+24(FP), R8
	MOVQ    b+32(FP), BX
	MOVQ    ldb+40(FP), R10
	MOVQ    d+48(FP), DI
	MOVQ    ldd+56(FP), R12
	SHLQ    $3, R8
	ADDQ    SI, R8
	SHLQ    $3, R10
	LEAQ    (R10)(R10*2), R11
	SHLQ    $3, R12
	VMOVUPD (DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD (DI)(R12*1), Y2
	VMOVUPD 32(DI)(R12*1), Y3
	TESTQ   CX, CX
	JZ      tile8_singles

tile8_group:
	VMOVUPD (BX), Y4
	VMOVUPD 32(BX), Y5
	VMOVUPD (BX)(R10*1), Y6
	VMOVUPD 32(BX)(R10*1), Y7
	VMOVUPD (BX)(R10*2), Y8
	VMOVUPD 32(BX)(R10*2), Y9
	VMOVUPD (BX)(R11*1), Y10
	VMOVUPD 32(BX)(R11*1), Y11
	ROW2X8(SI, Y0, Y1)
	ROW2X8(R8, Y2, Y3)
	ADDQ    $32, SI
	ADDQ    $32, R8
	LEAQ    (BX)(R10*4), BX
	DECQ    CX
	JNZ     tile8_group

tile8_singles:
	TESTQ DX, DX
	JZ    tile8_store

tile8_single:
	VMOVUPD (BX), Y4
	VMOVUPD 32(BX), Y5
	ONE2X8(SI, Y0, Y1)
	ONE2X8(R8, Y2, Y3)
	ADDQ    $8, SI
	ADDQ    $8, R8
	ADDQ    R10, BX
	DECQ    DX
	JNZ     tile8_single

tile8_store:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, (DI)(R12*1)
	VMOVUPD Y3, 32(DI)(R12*1)
	VZEROUPPER
	RET

// ROW4X4 adds one group of four x to the accumulator acc of one row of the
// 4×4 tile whose A entries start at (r); the four rows of B are in Y4..Y7.
// Y8..Y11 hold a0..a3, Y12 g, Y13 a product.
#define ROW4X4(r, acc) \
	VBROADCASTSD (r), Y8;       \
	VBROADCASTSD 8(r), Y9;      \
	VBROADCASTSD 16(r), Y10;    \
	VBROADCASTSD 24(r), Y11;    \
	VMULPD       Y4, Y8, Y12;   \
	VMULPD       Y5, Y9, Y13;   \
	VADDPD       Y13, Y12, Y12; \
	VMULPD       Y6, Y10, Y13;  \
	VADDPD       Y13, Y12, Y12; \
	VMULPD       Y7, Y11, Y13;  \
	VADDPD       Y13, Y12, Y12; \
	VADDPD       acc, Y12, acc

// ONE4X4 adds a·B[x, 0:4] (B's row in Y4) for the single x of one row.
#define ONE4X4(r, acc) \
	VBROADCASTSD (r), Y8;     \
	VMULPD       Y4, Y8, Y12; \
	VADDPD       acc, Y12, acc

// func mulTile4x4AVX2(groups, singles int, a *float64, lda int, b *float64, ldb int, d *float64, ldd int, mask *[4]uint64)
//
// The tile of four rows × up to four columns: B and dst are read and dst
// written under mask (all ones in the lanes of the tile's columns), so no
// memory past the tile is touched; the products in the masked-off lanes are
// discarded. SI, R8, R9, AX walk rows 0..3 of A from column x; BX walks row
// x of B (rows x+1, x+2, x+3 at R10, 2·R10, R11 = 3·R10 bytes further); DI
// is row 0 of the dst tile (rows 1, 2, 3 at R12, 2·R12, R13 = 3·R12).
TEXT ·mulTile4x4AVX2(SB), NOSPLIT, $0-72
	MOVQ       mask+64(FP), CX
	VMOVDQU    (CX), Y15
	MOVQ groups+0(FP), CX
	MOVQ singles+8(FP), DX
	MOVQ a+16(FP), SI
	MOVQ lda+24(FP), R8
	MOVQ b+32(FP), BX
	MOVQ ldb+40(FP), R10
	MOVQ d+48(FP), DI
	MOVQ ldd+56(FP), R12
	SHLQ $3, R8
	LEAQ (SI)(R8*2), R9
	LEAQ (R9)(R8*1), AX
	ADDQ SI, R8
	SHLQ $3, R10
	LEAQ (R10)(R10*2), R11
	SHLQ $3, R12
	LEAQ (R12)(R12*2), R13
	VMASKMOVPD (DI), Y15, Y0
	VMASKMOVPD (DI)(R12*1), Y15, Y1
	VMASKMOVPD (DI)(R12*2), Y15, Y2
	VMASKMOVPD (DI)(R13*1), Y15, Y3
	TESTQ      CX, CX
	JZ         tile4_singles

tile4_group:
	VMASKMOVPD (BX), Y15, Y4
	VMASKMOVPD (BX)(R10*1), Y15, Y5
	VMASKMOVPD (BX)(R10*2), Y15, Y6
	VMASKMOVPD (BX)(R11*1), Y15, Y7
	ROW4X4(SI, Y0)
	ROW4X4(R8, Y1)
	ROW4X4(R9, Y2)
	ROW4X4(AX, Y3)
	ADDQ       $32, SI
	ADDQ       $32, R8
	ADDQ       $32, R9
	ADDQ       $32, AX
	LEAQ       (BX)(R10*4), BX
	DECQ       CX
	JNZ        tile4_group

tile4_singles:
	TESTQ DX, DX
	JZ    tile4_store

tile4_single:
	VMASKMOVPD (BX), Y15, Y4
	ONE4X4(SI, Y0)
	ONE4X4(R8, Y1)
	ONE4X4(R9, Y2)
	ONE4X4(AX, Y3)
	ADDQ       $8, SI
	ADDQ       $8, R8
	ADDQ       $8, R9
	ADDQ       $8, AX
	ADDQ       R10, BX
	DECQ       DX
	JNZ        tile4_single

tile4_store:
	VMASKMOVPD Y0, Y15, (DI)
	VMASKMOVPD Y1, Y15, (DI)(R12*1)
	VMASKMOVPD Y2, Y15, (DI)(R12*2)
	VMASKMOVPD Y3, Y15, (DI)(R13*1)
	VZEROUPPER
	RET
