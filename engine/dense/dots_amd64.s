#include "textflag.h"

// AVX2 version of dot4Go (dots.go) over n = 4m terms. Y0 holds the four
// sums (s0, s1, s2, s3). For each block of four j, Y1..Y4 get the products
// aₖ[j..j+3]·bₖ[j..j+3] of k = 0..3, a 4×4 transpose turns them into the
// products of j, j+1, j+2, j+3 for k = 0..3, and those are added to Y0 in
// the order of j: every sum sees dot4Go's multiplies and adds in the same
// order, each rounded once (no FMA), so the results are bit-identical.

// func dot4AVX2(n int, s *[4]float64, p *[8]*float64)
TEXT ·dot4AVX2(SB), NOSPLIT, $0-24
	MOVQ   n+0(FP), CX
	MOVQ   p+16(FP), SI
	MOVQ   0(SI), R8        // a0
	MOVQ   8(SI), R9        // a1
	MOVQ   16(SI), R10      // a2
	MOVQ   24(SI), R11      // a3
	MOVQ   32(SI), R12      // b0
	MOVQ   40(SI), R13      // b1
	MOVQ   48(SI), R14      // b2
	MOVQ   56(SI), BX       // b3
	VXORPD Y0, Y0, Y0
	XORQ   AX, AX

dot4_block:
	VMOVUPD    (R8)(AX*8), Y1
	VMULPD     (R12)(AX*8), Y1, Y1 // a0[j..j+3]·b0[j..j+3]
	VMOVUPD    (R9)(AX*8), Y2
	VMULPD     (R13)(AX*8), Y2, Y2 // k = 1
	VMOVUPD    (R10)(AX*8), Y3
	VMULPD     (R14)(AX*8), Y3, Y3 // k = 2
	VMOVUPD    (R11)(AX*8), Y4
	VMULPD     (BX)(AX*8), Y4, Y4  // k = 3
	VUNPCKLPD  Y2, Y1, Y5          // (p0[j], p1[j], p0[j+2], p1[j+2])
	VUNPCKHPD  Y2, Y1, Y6          // (p0[j+1], p1[j+1], p0[j+3], p1[j+3])
	VUNPCKLPD  Y4, Y3, Y7          // (p2[j], p3[j], p2[j+2], p3[j+2])
	VUNPCKHPD  Y4, Y3, Y8          // (p2[j+1], p3[j+1], p2[j+3], p3[j+3])
	VPERM2F128 $0x20, Y7, Y5, Y1   // the products of j
	VPERM2F128 $0x20, Y8, Y6, Y2   // of j+1
	VPERM2F128 $0x31, Y7, Y5, Y3   // of j+2
	VPERM2F128 $0x31, Y8, Y6, Y4   // of j+3
	VADDPD     Y1, Y0, Y0
	VADDPD     Y2, Y0, Y0
	VADDPD     Y3, Y0, Y0
	VADDPD     Y4, Y0, Y0
	ADDQ       $4, AX
	CMPQ       AX, CX
	JL         dot4_block

	MOVQ    s+8(FP), DI
	VMOVUPD Y0, (DI)
	VZEROUPPER
	RET

// AVX2 version of dot8Go (dots.go) over n = 4m terms: dot4AVX2 twice in one
// loop, sums 0..3 in Y0 and sums 4..7 in Y9. The two chains of additions
// are independent, so they run side by side and the loop costs about what
// one of them costs alone. Pointers a0..a3 and b0..b3 stay in registers;
// those of the second group are loaded from p in every block (there are not
// enough registers for sixteen), which costs L1 loads that fit beside the
// vector loads. The products and the transpose of the second group reuse
// Y1..Y8: renaming makes them new registers, so nothing waits on the first
// group. Each sum sees dot8Go's multiplies and adds in the same order, each
// rounded once (no FMA).

// func dot8AVX2(n int, s *[8]float64, p *[16]*float64)
TEXT ·dot8AVX2(SB), NOSPLIT, $0-24
	MOVQ   n+0(FP), CX
	MOVQ   p+16(FP), SI
	MOVQ   0(SI), R8        // a0
	MOVQ   8(SI), R9        // a1
	MOVQ   16(SI), R10      // a2
	MOVQ   24(SI), R11      // a3
	MOVQ   64(SI), R12      // b0
	MOVQ   72(SI), R13      // b1
	MOVQ   80(SI), R14      // b2
	MOVQ   88(SI), BX       // b3
	VXORPD Y0, Y0, Y0
	VXORPD Y9, Y9, Y9
	XORQ   AX, AX

dot8_block:
	// sums 0..3, as dot4AVX2
	VMOVUPD    (R8)(AX*8), Y1
	VMULPD     (R12)(AX*8), Y1, Y1
	VMOVUPD    (R9)(AX*8), Y2
	VMULPD     (R13)(AX*8), Y2, Y2
	VMOVUPD    (R10)(AX*8), Y3
	VMULPD     (R14)(AX*8), Y3, Y3
	VMOVUPD    (R11)(AX*8), Y4
	VMULPD     (BX)(AX*8), Y4, Y4
	VUNPCKLPD  Y2, Y1, Y5
	VUNPCKHPD  Y2, Y1, Y6
	VUNPCKLPD  Y4, Y3, Y7
	VUNPCKHPD  Y4, Y3, Y8
	VPERM2F128 $0x20, Y7, Y5, Y1
	VPERM2F128 $0x20, Y8, Y6, Y2
	VPERM2F128 $0x31, Y7, Y5, Y3
	VPERM2F128 $0x31, Y8, Y6, Y4
	VADDPD     Y1, Y0, Y0
	VADDPD     Y2, Y0, Y0
	VADDPD     Y3, Y0, Y0
	VADDPD     Y4, Y0, Y0

	// sums 4..7: the same with a4..a7, b4..b7 loaded from p
	MOVQ       32(SI), DX       // a4
	MOVQ       96(SI), DI       // b4
	VMOVUPD    (DX)(AX*8), Y1
	VMULPD     (DI)(AX*8), Y1, Y1
	MOVQ       40(SI), DX       // a5
	MOVQ       104(SI), DI      // b5
	VMOVUPD    (DX)(AX*8), Y2
	VMULPD     (DI)(AX*8), Y2, Y2
	MOVQ       48(SI), DX       // a6
	MOVQ       112(SI), DI      // b6
	VMOVUPD    (DX)(AX*8), Y3
	VMULPD     (DI)(AX*8), Y3, Y3
	MOVQ       56(SI), DX       // a7
	MOVQ       120(SI), DI      // b7
	VMOVUPD    (DX)(AX*8), Y4
	VMULPD     (DI)(AX*8), Y4, Y4
	VUNPCKLPD  Y2, Y1, Y5
	VUNPCKHPD  Y2, Y1, Y6
	VUNPCKLPD  Y4, Y3, Y7
	VUNPCKHPD  Y4, Y3, Y8
	VPERM2F128 $0x20, Y7, Y5, Y1
	VPERM2F128 $0x20, Y8, Y6, Y2
	VPERM2F128 $0x31, Y7, Y5, Y3
	VPERM2F128 $0x31, Y8, Y6, Y4
	VADDPD     Y1, Y9, Y9
	VADDPD     Y2, Y9, Y9
	VADDPD     Y3, Y9, Y9
	VADDPD     Y4, Y9, Y9

	ADDQ       $4, AX
	CMPQ       AX, CX
	JL         dot8_block

	MOVQ    s+8(FP), DI
	VMOVUPD Y0, (DI)
	VMOVUPD Y9, 32(DI)
	VZEROUPPER
	RET
