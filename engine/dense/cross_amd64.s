#include "textflag.h"

// Register-blocked tiles of CrossRows (cross.go): a tile of g = AᵀB stays
// in YMM accumulators while the kernel walks n rows of A and B, so g is read
// and written once per call rather than once per row, and each row of B
// loaded serves four x. For each entry the operations are axpyAVX2's, in
// the same order and with the same operand order (so even the NaN that wins
// when two NaNs meet is the same): per row i, p = a·b with a = A[i, x]
// (first operand) and b = B[i, y], then g = p + g.

// CROSS2 adds a·B[i, 0:8] (in Y8, Y9) to the accumulators acc0, acc1 of one
// x of an 8-column tile, a at the memory operand m; Y10 holds the
// broadcast a, Y11 and Y12 the products.
#define CROSS2(m, acc0, acc1) \
	VBROADCASTSD m, Y10;         \
	VMULPD       Y8, Y10, Y11;   \
	VMULPD       Y9, Y10, Y12;   \
	VADDPD       acc0, Y11, acc0; \
	VADDPD       acc1, Y12, acc1

// CROSS1 adds a·B[i, 0:4] (in Y8) to the accumulator acc of one x of a
// 4-column tile.
#define CROSS1(m, acc) \
	VBROADCASTSD m, Y10;        \
	VMULPD       Y8, Y10, Y11;  \
	VADDPD       acc, Y11, acc

// func crossTile4x8AVX2(n int, a *float64, lda int, b *float64, ldb int, t *float64, ldt int)
//
// The tile of four x × eight y: SI walks A[i, x..x+3], BX walks B[i, y..y+7]
// (strides R8, R10 bytes); DI is row x of the g tile, rows x+1..x+3 at R12,
// 2·R12, R13 = 3·R12 bytes further. The row of B eight rows ahead is
// prefetched: the first tile over a range of rows takes B from memory, one
// cache line per row, a stride the hardware prefetcher does not follow far
// enough ahead.
TEXT ·crossTile4x8AVX2(SB), NOSPLIT, $0-56
	MOVQ    n+0(FP), CX
	MOVQ    a+8(FP), SI
	MOVQ    lda+16(FP), R8
	MOVQ    b+24(FP), BX
	MOVQ    ldb+32(FP), R10
	MOVQ    t+40(FP), DI
	MOVQ    ldt+48(FP), R12
	SHLQ    $3, R8
	SHLQ    $3, R10
	SHLQ    $3, R12
	LEAQ    (R12)(R12*2), R13
	VMOVUPD (DI), Y0
	VMOVUPD 32(DI), Y1
	VMOVUPD (DI)(R12*1), Y2
	VMOVUPD 32(DI)(R12*1), Y3
	VMOVUPD (DI)(R12*2), Y4
	VMOVUPD 32(DI)(R12*2), Y5
	VMOVUPD (DI)(R13*1), Y6
	VMOVUPD 32(DI)(R13*1), Y7
	TESTQ   CX, CX
	JZ      cross48_store

cross48_row:
	PREFETCHT0 (BX)(R10*8)
	VMOVUPD (BX), Y8
	VMOVUPD 32(BX), Y9
	CROSS2((SI), Y0, Y1)
	CROSS2(8(SI), Y2, Y3)
	CROSS2(16(SI), Y4, Y5)
	CROSS2(24(SI), Y6, Y7)
	ADDQ    R8, SI
	ADDQ    R10, BX
	DECQ    CX
	JNZ     cross48_row

cross48_store:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VMOVUPD Y2, (DI)(R12*1)
	VMOVUPD Y3, 32(DI)(R12*1)
	VMOVUPD Y4, (DI)(R12*2)
	VMOVUPD Y5, 32(DI)(R12*2)
	VMOVUPD Y6, (DI)(R13*1)
	VMOVUPD Y7, 32(DI)(R13*1)
	VZEROUPPER
	RET

// func crossTile1x8AVX2(n int, a *float64, lda int, b *float64, ldb int, t *float64)
//
// crossTile4x8AVX2 for one x (the x left over after the groups of four).
TEXT ·crossTile1x8AVX2(SB), NOSPLIT, $0-48
	MOVQ    n+0(FP), CX
	MOVQ    a+8(FP), SI
	MOVQ    lda+16(FP), R8
	MOVQ    b+24(FP), BX
	MOVQ    ldb+32(FP), R10
	MOVQ    t+40(FP), DI
	SHLQ    $3, R8
	SHLQ    $3, R10
	VMOVUPD (DI), Y0
	VMOVUPD 32(DI), Y1
	TESTQ   CX, CX
	JZ      cross18_store

cross18_row:
	PREFETCHT0 (BX)(R10*8)
	VMOVUPD (BX), Y8
	VMOVUPD 32(BX), Y9
	CROSS2((SI), Y0, Y1)
	ADDQ    R8, SI
	ADDQ    R10, BX
	DECQ    CX
	JNZ     cross18_row

cross18_store:
	VMOVUPD Y0, (DI)
	VMOVUPD Y1, 32(DI)
	VZEROUPPER
	RET

// func crossTile4x4AVX2(n int, a *float64, lda int, b *float64, ldb int, t *float64, ldt int, mask *[4]uint64)
//
// The tile of four x × up to four y (the right edge): B and g are read and
// g written under mask (all ones in the lanes of the tile's columns), so no
// memory past the tile is touched; the products in the masked-off lanes
// are discarded.
TEXT ·crossTile4x4AVX2(SB), NOSPLIT, $0-64
	MOVQ       mask+56(FP), CX
	VMOVDQU    (CX), Y15
	MOVQ       n+0(FP), CX
	MOVQ       a+8(FP), SI
	MOVQ       lda+16(FP), R8
	MOVQ       b+24(FP), BX
	MOVQ       ldb+32(FP), R10
	MOVQ       t+40(FP), DI
	MOVQ       ldt+48(FP), R12
	SHLQ       $3, R8
	SHLQ       $3, R10
	SHLQ       $3, R12
	LEAQ       (R12)(R12*2), R13
	VMASKMOVPD (DI), Y15, Y0
	VMASKMOVPD (DI)(R12*1), Y15, Y1
	VMASKMOVPD (DI)(R12*2), Y15, Y2
	VMASKMOVPD (DI)(R13*1), Y15, Y3
	TESTQ      CX, CX
	JZ         cross44_store

cross44_row:
	VMASKMOVPD (BX), Y15, Y8
	CROSS1((SI), Y0)
	CROSS1(8(SI), Y1)
	CROSS1(16(SI), Y2)
	CROSS1(24(SI), Y3)
	ADDQ       R8, SI
	ADDQ       R10, BX
	DECQ       CX
	JNZ        cross44_row

cross44_store:
	VMASKMOVPD Y0, Y15, (DI)
	VMASKMOVPD Y1, Y15, (DI)(R12*1)
	VMASKMOVPD Y2, Y15, (DI)(R12*2)
	VMASKMOVPD Y3, Y15, (DI)(R13*1)
	VZEROUPPER
	RET

// func crossTile1x4AVX2(n int, a *float64, lda int, b *float64, ldb int, t *float64, mask *[4]uint64)
//
// crossTile4x4AVX2 for one x.
TEXT ·crossTile1x4AVX2(SB), NOSPLIT, $0-56
	MOVQ       mask+48(FP), CX
	VMOVDQU    (CX), Y15
	MOVQ       n+0(FP), CX
	MOVQ       a+8(FP), SI
	MOVQ       lda+16(FP), R8
	MOVQ       b+24(FP), BX
	MOVQ       ldb+32(FP), R10
	MOVQ       t+40(FP), DI
	SHLQ       $3, R8
	SHLQ       $3, R10
	VMASKMOVPD (DI), Y15, Y0
	TESTQ      CX, CX
	JZ         cross14_store

cross14_row:
	VMASKMOVPD (BX), Y15, Y8
	CROSS1((SI), Y0)
	ADDQ       R8, SI
	ADDQ       R10, BX
	DECQ       CX
	JNZ        cross14_row

cross14_store:
	VMASKMOVPD Y0, Y15, (DI)
	VZEROUPPER
	RET
