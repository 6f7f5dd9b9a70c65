#include "textflag.h"

// sweepLanesAVX512: one cdPass sweep on sixteen rows at once (see
// lanes.go and cdPass in lasso.go), in two halves of eight lanes: lane l of
// a ZMM register is row l of its half. Every lane sees cdPass's operations
// in cdPass's order, each rounded once (no FMA):
//
//	w  = (r_j − g_j) + s_jj·x_j
//	nx = S_half(w) / s_jj, or +0 when s_jj ≤ 0 (S_half: w − half if
//	     w > half, w + half if w < −half, else 0)
//	d  = nx − x_j; the lane moved when d ≠ 0 (or NaN)
//	maxAbs = max(|nx|, maxAbs), maxDelta = max(|d|, maxDelta), keeping
//	     the old value on NaN as cdPass's "a > max" does
//	x_j = nx where moved (a −0 that stays at zero keeps its sign)
//	g_l += d_l·S_j for each lane l that moved (axpy's operations)
//
// cdPass skips the step of a coordinate at zero whose w lies in
// [−half, half]; here that step gives nx = +0, d = 0, no move and
// |nx| = 0, so nothing changes either way.
//
// The two halves' steps are independent chains (each visit's step waits
// for the one before through g_j), written one after the other so that the
// processor overlaps them. x and r hold coordinate j of the sixteen lanes
// at 16j…16j+15 (half A, then half B); S and g are padded to ld, a
// multiple of eight, with zeros (S) and values that only ever receive ±0
// (g), and 64-byte aligned, so that each axpy is ld/8 aligned ZMM steps; g
// is lane after lane (g_l at l·ld, then one more element). g_{j+1} of the
// lanes is gathered before a visit's updates are stored, and the visit
// adds its d·s_{j,j+1} to it in registers as the updates do (for a lane
// that did not move, ±0, which leaves the bits of g as they were, see
// SolveRows), so the next visit does not wait for the stores.
//
// Registers: Z2/Z22 g_j of half A/B, Z8/Z23 moves, Z9/Z24 maxAbs,
// Z10/Z25 maxDelta, Z20/Z26 the gather's indexes l·ld + j.

// func sweepLanesAVX512(k, ld int, s, diag, x, r, grad *float64, half float64, acc *sweepAcc)
TEXT ·sweepLanesAVX512(SB), NOSPLIT, $0-72
	MOVQ         k+0(FP), CX
	MOVQ         ld+8(FP), R11
	SHLQ         $3, R11               // bytes per row of S and per lane of g
	MOVQ         s+16(FP), SI
	MOVQ         diag+24(FP), DX
	MOVQ         x+32(FP), R8
	MOVQ         r+40(FP), R9
	MOVQ         grad+48(FP), DI
	VBROADCASTSD half+56(FP), Z15
	MOVQ         acc+64(FP), R10
	VPXORQ       Z14, Z14, Z14         // 0
	VSUBPD       Z15, Z14, Z13         // −half
	VPTERNLOGQ   $0xff, Z12, Z12, Z12
	VPSRLQ       $1, Z12, Z12          // |·| mask
	VPTERNLOGQ   $0xff, Z11, Z11, Z11
	VPSRLQ       $63, Z11, Z11         // int64 1 in every lane
	VMOVUPD      0(R10), Z10           // maxDelta
	VMOVUPD      64(R10), Z25
	VMOVUPD      128(R10), Z9          // maxAbs
	VMOVUPD      192(R10), Z24
	VMOVDQU64    256(R10), Z8          // moves
	VMOVDQU64    320(R10), Z23
	VMOVDQU64    512(R10), Z20         // l·ld: lane l's g_0
	VMOVDQU64    576(R10), Z26
	XORQ         AX, AX                // j
	KXNORB       K5, K5, K5
	VGATHERQPD   (DI)(Z20*8), K5, Z2   // g_0
	KXNORB       K6, K6, K6
	VGATHERQPD   (DI)(Z26*8), K6, Z22

visit:
	CMPQ         AX, CX
	JGE          done
	VBROADCASTSD (DX)(AX*8), Z1        // s_jj
	VCMPPD       $0x1e, Z14, Z1, K2    // s_jj > 0

	// half A
	VMOVUPD      (R8), Z0              // x_j
	VMOVUPD      (R9), Z3              // r_j
	VSUBPD       Z2, Z3, Z2            // r_j − g_j
	VMULPD       Z0, Z1, Z3            // s_jj·x_j
	VADDPD       Z3, Z2, Z2            // w
	VCMPPD       $0x1e, Z15, Z2, K3    // w > half
	VCMPPD       $0x11, Z13, Z2, K4    // w < −half
	VPXORQ       Z4, Z4, Z4
	VSUBPD       Z15, Z2, K3, Z4       // w − half where w > half
	VADDPD       Z15, Z2, K4, Z4       // w + half where w < −half
	VDIVPD       Z1, Z4, Z4            // S_half(w) / s_jj
	VMOVAPD.Z    Z4, K2, Z4            // nx
	VSUBPD       Z0, Z4, Z5            // d = nx − x_j
	VCMPPD       $0x04, Z14, Z5, K1    // moved: d ≠ 0, unordered true
	VPANDQ       Z12, Z4, Z7
	VMAXPD       Z9, Z7, Z9            // maxAbs
	VPANDQ       Z12, Z5, Z7
	VMAXPD       Z10, Z7, Z10          // maxDelta
	VPADDQ       Z11, Z8, K1, Z8       // moves
	VMOVAPD      Z4, K1, Z0            // x_j = nx where moved
	VMOVUPD      Z0, (R8)

	// half B
	VMOVUPD      64(R8), Z16
	VMOVUPD      64(R9), Z17
	VSUBPD       Z22, Z17, Z22
	VMULPD       Z16, Z1, Z17
	VADDPD       Z17, Z22, Z22
	VCMPPD       $0x1e, Z15, Z22, K3
	VCMPPD       $0x11, Z13, Z22, K4
	VPXORQ       Z18, Z18, Z18
	VSUBPD       Z15, Z22, K3, Z18
	VADDPD       Z15, Z22, K4, Z18
	VDIVPD       Z1, Z18, Z18
	VMOVAPD.Z    Z18, K2, Z18
	VSUBPD       Z16, Z18, Z19
	VCMPPD       $0x04, Z14, Z19, K7
	VPANDQ       Z12, Z18, Z21
	VMAXPD       Z24, Z21, Z24
	VPANDQ       Z12, Z19, Z21
	VMAXPD       Z25, Z21, Z25
	VPADDQ       Z11, Z23, K7, Z23
	VMOVAPD      Z18, K7, Z16
	VMOVUPD      Z16, 64(R8)

	// g_{j+1} before this visit's updates (padding at j + 1 = k)
	VPADDQ       Z11, Z20, Z20
	KXNORB       K5, K5, K5
	VGATHERQPD   (DI)(Z20*8), K5, Z2
	VPADDQ       Z11, Z26, Z26
	KXNORB       K6, K6, K6
	VGATHERQPD   (DI)(Z26*8), K6, Z22
	KMOVB        K1, R12
	KMOVB        K7, BX
	SHLQ         $8, BX
	ORQ          BX, R12               // lanes that moved: A in bits 0–7, B in 8–15
	TESTQ        R12, R12
	JZ           next
	LEAQ         1(AX), BX
	CMPQ         BX, CX
	JGE          lanes_start
	VBROADCASTSD 8(SI)(AX*8), Z3       // s_{j,j+1}
	VMULPD       Z3, Z5, Z0
	VADDPD       Z0, Z2, Z2
	VMULPD       Z3, Z19, Z0
	VADDPD       Z0, Z22, Z22

lanes_start:
	VMOVUPD      Z5, 384(R10)          // d, read back per lane
	VMOVUPD      Z19, 448(R10)

lane:
	// g_l += d_l·S_j for the lowest lane l left in R12
	BSFQ         R12, BX
	BTRQ         BX, R12
	VBROADCASTSD 384(R10)(BX*8), Z0
	IMULQ        R11, BX
	LEAQ         (DI)(BX*1), R14       // g_l
	XORQ         R13, R13              // byte offset of g_i and s_ji

axpy_eight:
	VMULPD       (SI)(R13*1), Z0, Z3
	VADDPD       (R14)(R13*1), Z3, Z3
	VMOVUPD      Z3, (R14)(R13*1)
	ADDQ         $64, R13
	CMPQ         R13, R11
	JL           axpy_eight
	TESTQ        R12, R12
	JNZ          lane

next:
	ADDQ         R11, SI               // S_{j+1}
	ADDQ         $128, R8
	ADDQ         $128, R9
	INCQ         AX
	JMP          visit

done:
	VMOVUPD      Z10, 0(R10)
	VMOVUPD      Z25, 64(R10)
	VMOVUPD      Z9, 128(R10)
	VMOVUPD      Z24, 192(R10)
	VMOVDQU64    Z8, 256(R10)
	VMOVDQU64    Z23, 320(R10)
	VZEROUPPER
	RET

// func sxAVX512(chunks, nnz int, idx *int32, val, s *float64, ld int, out *float64)
//
// out = Σ_t val[t]·S_{idx[t]} over the rows of S (stride ld, 64-byte
// aligned, read in chunks of 64 entries past a row's end when ld is not a
// multiple of 64), each entry summed in t order from +0 with a multiply,
// then an add: Solve's g = S x with a cleared g and one axpy per non-zero.
// The sums of a chunk stay in eight registers.
TEXT ·sxAVX512(SB), NOSPLIT, $0-56
	MOVQ         chunks+0(FP), CX
	MOVQ         nnz+8(FP), DX
	MOVQ         idx+16(FP), R8
	MOVQ         val+24(FP), R9
	MOVQ         s+32(FP), SI
	MOVQ         ld+40(FP), R11
	SHLQ         $3, R11               // bytes per row of S
	MOVQ         out+48(FP), DI

sx_chunk:
	TESTQ        CX, CX
	JZ           sx_done
	VPXORQ       Z16, Z16, Z16
	VPXORQ       Z17, Z17, Z17
	VPXORQ       Z18, Z18, Z18
	VPXORQ       Z19, Z19, Z19
	VPXORQ       Z20, Z20, Z20
	VPXORQ       Z21, Z21, Z21
	VPXORQ       Z22, Z22, Z22
	VPXORQ       Z23, Z23, Z23
	XORQ         AX, AX                // t

sx_term:
	CMPQ         AX, DX
	JGE          sx_store
	MOVLQSX      (R8)(AX*4), BX
	IMULQ        R11, BX
	ADDQ         SI, BX                // this chunk of row idx[t]
	VBROADCASTSD (R9)(AX*8), Z0
	VMULPD       (BX), Z0, Z1
	VMULPD       64(BX), Z0, Z2
	VMULPD       128(BX), Z0, Z3
	VMULPD       192(BX), Z0, Z4
	VMULPD       256(BX), Z0, Z5
	VMULPD       320(BX), Z0, Z6
	VMULPD       384(BX), Z0, Z7
	VMULPD       448(BX), Z0, Z8
	VADDPD       Z1, Z16, Z16
	VADDPD       Z2, Z17, Z17
	VADDPD       Z3, Z18, Z18
	VADDPD       Z4, Z19, Z19
	VADDPD       Z5, Z20, Z20
	VADDPD       Z6, Z21, Z21
	VADDPD       Z7, Z22, Z22
	VADDPD       Z8, Z23, Z23
	INCQ         AX
	JMP          sx_term

sx_store:
	VMOVUPD      Z16, (DI)
	VMOVUPD      Z17, 64(DI)
	VMOVUPD      Z18, 128(DI)
	VMOVUPD      Z19, 192(DI)
	VMOVUPD      Z20, 256(DI)
	VMOVUPD      Z21, 320(DI)
	VMOVUPD      Z22, 384(DI)
	VMOVUPD      Z23, 448(DI)
	ADDQ         $512, SI
	ADDQ         $512, DI
	DECQ         CX
	JMP          sx_chunk

sx_done:
	VZEROUPPER
	RET
