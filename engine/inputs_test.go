package engine

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine/sparse"
	"gonum.org/v1/gonum/mat"
)

func TestCheckFoldIn(t *testing.T) {
	one := func(v float64) *sparse.CSR {
		x, err := sparse.FromTriplets(2, 3, []sparse.Triplet{{Row: 1, Col: 2, Val: v}})
		if err != nil {
			t.Fatal(err)
		}
		return x
	}
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	odd := func(v float64) error {
		if v == 3 {
			return errors.New("3, want anything else")
		}
		return nil
	}
	for _, tc := range []struct {
		name  string
		ctx   context.Context
		x     *sparse.CSR
		terms int
		entry func(float64) error
		want  string // "" means no error
	}{
		{"valid", context.Background(), one(2), 3, nil, ""},
		{"zero rows", context.Background(), &sparse.CSR{Rows: 0, Cols: 3, RowPtr: []int{0}}, 3, nil, ""},
		{"nil", context.Background(), nil, 3, nil, "m: FoldIn: nil matrix"},
		{"width", context.Background(), one(2), 4, nil, "m: FoldIn: X has 3 columns, want the 4 terms of the training vocabulary"},
		{"negative", context.Background(), one(-2), 3, nil, "m: FoldIn: X[1,2] = -2, want finite and non-negative"},
		{"NaN", context.Background(), one(math.NaN()), 3, nil, "m: FoldIn: X[1,2] = NaN, want finite and non-negative"},
		{"own rule", context.Background(), one(3), 3, odd, "m: FoldIn: X[1,2] = 3, want anything else"},
		{"own rule accepts", context.Background(), one(-2), 3, odd, ""},
		{"Finite accepts negative", context.Background(), one(-2), 3, Finite, ""},
		{"Finite rejects Inf", context.Background(), one(math.Inf(-1)), 3, Finite, "m: FoldIn: X[1,2] = -Inf, want finite"},
		{"cancelled", cancelled, one(2), 3, nil, context.Canceled.Error()},
	} {
		err := CheckFoldIn(tc.ctx, "m", tc.x, tc.terms, tc.entry)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestCheckStart(t *testing.T) {
	good := mat.NewDense(2, 3, []float64{0, 1, 2, 3, 4, 5})
	if err := CheckStart("m", "U0", good, 2, 3, "M×K"); err != nil {
		t.Errorf("valid start: %v", err)
	}
	for _, tc := range []struct {
		name string
		a    *mat.Dense
		want string
	}{
		{"shape", mat.NewDense(3, 2, nil), "m: U0 is 3×2, want M×K = 2×3"},
		{"negative", mat.NewDense(2, 3, []float64{0, 1, 2, 3, -4, 5}), "m: U0[1,1] = -4, want finite and non-negative"},
		{"Inf", mat.NewDense(2, 3, []float64{0, 1, math.Inf(1), 3, 4, 5}), "m: U0[0,2] = +Inf, want finite and non-negative"},
	} {
		if err := CheckStart("m", "U0", tc.a, 2, 3, "M×K"); err == nil || err.Error() != tc.want {
			t.Errorf("%s: %v, want %q", tc.name, err, tc.want)
		}
	}
}

func TestResolveK(t *testing.T) {
	for _, tc := range []struct {
		k, m, n, want int
		err           string // "" means no error
	}{
		{0, 30, 40, 7, ""},
		{20, 30, 20, 20, ""},
		{21, 30, 20, 21, "m: K = 21 exceeds min(M, N) = min(30 terms, 20 documents) = 20"},
		{0, 0, 40, 7, "m: empty corpus (0 terms × 40 documents)"},
		{3, 5, 0, 3, "m: empty corpus (5 terms × 0 documents)"},
	} {
		k := tc.k
		err := ResolveK("m", &k, 7, tc.m, tc.n)
		if k != tc.want || tc.err == "" && err != nil || tc.err != "" && (err == nil || err.Error() != tc.err) {
			t.Errorf("K %d on %d×%d: K %d, error %v; want K %d, error %q", tc.k, tc.m, tc.n, k, err, tc.want, tc.err)
		}
	}
}

func TestCheckFactors(t *testing.T) {
	group := "K = Ks + P·Kc = 20 + 3·8 = 44"
	if err := CheckFactors("m", group, 44, 28, 30, 60); err == nil || err.Error() != "m: "+group+" exceeds min(M, N) = min(30 terms, 60 documents) = 30" {
		t.Errorf("K = 44 on 30×60: %v", err)
	}
	if err := CheckFactors("m", group, 44, 28, 50, 60); err != nil {
		t.Errorf("K = 44 on 50×60: %v", err)
	}
}

// TestCheckMemory: factors that cannot fit in this machine's memory are an
// error naming the sizes, before anything is allocated; ResolveK makes
// the check (K = 1000 topics of 2³⁰ terms × 2³⁰ documents need 17.2 TB;
// 2³⁰ so that the sizes are ints on 32-bit platforms too).
func TestCheckMemory(t *testing.T) {
	avail := Memory()
	if avail == 0 {
		t.Skip("the machine's memory is unknown here: CheckMemory passes")
	}
	k := 1000
	err := ResolveK("m", &k, 7, 1<<30, 1<<30)
	want := fmt.Sprintf("m: K = 1000 topics of 1073741824 terms × 1073741824 documents need at least 17179869184000 bytes (1.6e+04 GiB) for their factors, more than the %d bytes", avail)
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("K = 1000 on 2³⁰×2³⁰: %v, want %q…", err, want)
	}
	// 8 bytes × (M·K + N·vCols) just above and at the available memory.
	m := int(avail/8) + 1
	if err := CheckMemory("m", 1, 0, m, 1); err == nil {
		t.Errorf("8·%d bytes on a machine of %d: no error", m, avail)
	}
	if err := CheckMemory("m", 1, 0, m-1, 1); err != nil {
		t.Errorf("8·%d bytes on a machine of %d: %v", m-1, avail, err)
	}
	if err := CheckMemory("m", 500, 500, 30000, 20000); err != nil {
		t.Errorf("the benchmark size: %v", err)
	}
}
