package coherence

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/topicmf/topicmf/engine/parallel"
)

// naive counts contexts the slow way: every window's word set built from
// scratch (exact) or by gensim's marking rule, every pair visited.
func naive(docs [][]int32, r, window int, exact bool) *counts {
	c := newCounts(r)
	visit := func(set map[int32]bool) {
		c.contexts++
		for a := range set {
			c.occ[a]++
			for b := range set {
				if a < b {
					c.co[c.pair(a, b)]++
				}
			}
		}
	}
	for _, doc := range docs {
		if window > 0 && len(doc) == 0 {
			continue
		}
		if window <= 0 || len(doc) < window {
			set := map[int32]bool{}
			for _, a := range doc {
				if a >= 0 {
					set[a] = true
				}
			}
			visit(set)
			continue
		}
		marked := map[int32]bool{}
		for t := 0; t+window <= len(doc); t++ {
			if exact || t == 0 {
				clear(marked)
				for _, a := range doc[t : t+window] {
					if a >= 0 {
						marked[a] = true
					}
				}
			} else {
				delete(marked, doc[t-1])
				if a := doc[t+window-1]; a >= 0 {
					marked[a] = true
				}
			}
			visit(marked)
		}
	}
	return c
}

func randomDocs(rng *rand.Rand, n, r int) [][]int32 {
	docs := make([][]int32, n)
	for i := range docs {
		L := rng.IntN(40)
		for range L {
			a := int32(rng.IntN(r+3)) - 3 // about 3/(r+3) of the tokens are not relevant
			if a < 0 {
				a = -1
			}
			docs[i] = append(docs[i], a)
		}
	}
	return docs
}

// TestCountsMatchNaive checks the incremental counting against visiting
// every window, for both window rules, whole documents, short and empty
// documents, and words repeated inside a window.
func TestCountsMatchNaive(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	const r = 6
	docs := randomDocs(rng, 300, r)
	identity := make([]int32, r)
	for i := range identity {
		identity[i] = int32(i)
	}
	for _, exact := range []bool{false, true} {
		for _, window := range []int{0, 1, 2, 5, 10} {
			got := count(docs, identity, r, []int{window}, exact, parallel.NewPool(2))[0]
			want := naive(docs, r, window, exact)
			if got.contexts != want.contexts {
				t.Fatalf("exact=%v window=%d: %d contexts, want %d", exact, window, got.contexts, want.contexts)
			}
			for i := range want.occ {
				if got.occ[i] != want.occ[i] {
					t.Fatalf("exact=%v window=%d: occ[%d] = %d, want %d", exact, window, i, got.occ[i], want.occ[i])
				}
			}
			for i := range want.co {
				if got.co[i] != want.co[i] {
					t.Fatalf("exact=%v window=%d: co[%d] = %d, want %d", exact, window, i, got.co[i], want.co[i])
				}
			}
		}
	}
}

// TestGensimRuleDiffersFromExact shows the two window rules apart on
// "a b a c" with window 3: gensim unmarks a when the first a leaves,
// although the second a is still in the window "b a c".
func TestGensimRuleDiffersFromExact(t *testing.T) {
	docs := [][]int32{{0, 1, 0, 2}}
	ids := []int32{0, 1, 2}
	g := count(docs, ids, 3, []int{3}, false, nil)[0]
	e := count(docs, ids, 3, []int{3}, true, nil)[0]
	if g.contexts != 2 || e.contexts != 2 {
		t.Fatalf("contexts %d, %d; want 2 windows", g.contexts, e.contexts)
	}
	if g.occ[0] != 1 || e.occ[0] != 2 {
		t.Fatalf("windows holding a: gensim %d (want 1), exact %d (want 2)", g.occ[0], e.occ[0])
	}
}

// TestHandComputed checks each measure on a corpus small enough to count
// by hand: documents "a b", "a c", "b c a", "d"; topic (a, b).
func TestHandComputed(t *testing.T) {
	ref := Reference{Vocab: []string{"a", "b", "c", "d"}, Docs: [][]int32{{0, 1}, {0, 2}, {1, 2, 0}, {3}}}
	topics := [][]int32{{0, 1}, {0, 3}}
	// Whole documents: N = 4, D(a) = 3, D(b) = 2, D(a,b) = 2, D(d) = 1, D(a,d) = 0.
	// Windows of 2: "a b" | "a c" | "b c", "c a" | "d" → N = 5 windows;
	// a in 3, b in 2, (a,b) in 1, d in 1, (a,d) in 0.
	const eps = 1e-12
	umassAB := math.Log((2.0/4 + eps) / (3.0 / 4))                           // pair (b, a): w' = b, w* = a
	umassAD := math.Log((0.0/4 + eps) / (3.0 / 4))                           // pair (d, a)
	pmiAB := math.Log((1.0/5 + eps) / ((3.0 / 5) * (2.0 / 5)))               // symmetric
	npmiAB := pmiAB / -math.Log(1.0/5+eps)                                   //
	npmiAD := math.Log((0.0/5+eps)/((3.0/5)*(1.0/5))) / -math.Log(0.0/5+eps) // ≈ −1 + small
	cases := []struct {
		m    Measure
		opt  Options
		want []float64
	}{
		{UMass, Options{}, []float64{umassAB, umassAD}},
		{UMass, Options{Paper: true}, []float64{math.Log((2.0 + 1) / 3), math.Log((0.0 + 1) / 3)}},
		{UCI, Options{Window: 2}, []float64{pmiAB, math.Log((0.0/5 + eps) / ((3.0 / 5) * (1.0 / 5)))}},
		{NPMI, Options{Window: 2}, []float64{npmiAB, npmiAD}},
		{NPMI, Options{Window: 2, Paper: true}, []float64{math.Log((1.0/5)/((3.0/5)*(2.0/5))) / -math.Log(1.0/5), -1}},
	}
	for _, c := range cases {
		got, err := Score(ref, topics, []Measure{c.m}, c.opt)
		if err != nil {
			t.Fatal(err)
		}
		for k := range c.want {
			if math.Abs(got[c.m][k]-c.want[k]) > 1e-12 {
				t.Errorf("%s %+v topic %d: %v, want %v", c.m, c.opt, k, got[c.m][k], c.want[k])
			}
		}
	}
	// C_V of topic (a, b) with window 2: the NPMI matrix
	// [[n(a,a), n(a,b)], [n(a,b), n(b,b)]], v(W) its column sums.
	naa := math.Log((3.0/5+eps)/((3.0/5)*(3.0/5))) / -math.Log(3.0/5+eps)
	nbb := math.Log((2.0/5+eps)/((2.0/5)*(2.0/5))) / -math.Log(2.0/5+eps)
	w := []float64{naa + npmiAB, npmiAB + nbb}
	cos := func(v []float64) float64 {
		return (v[0]*w[0] + v[1]*w[1]) / (math.Hypot(v[0], v[1]) * math.Hypot(w[0], w[1]))
	}
	wantCV := (cos([]float64{naa, npmiAB}) + cos([]float64{npmiAB, nbb})) / 2
	got, err := Score(ref, topics[:1], []Measure{CV}, Options{CVWindow: 2})
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(got[CV][0]-wantCV) > 1e-12 {
		t.Errorf("C_V: %v, want %v", got[CV][0], wantCV)
	}
}

// TestWorkersBitIdentical scores the same corpus with 1, 2 and 5 workers.
func TestWorkersBitIdentical(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	const r = 30
	docs := randomDocs(rng, 3000, r)
	for _, d := range docs {
		for i := range d {
			if d[i] < 0 {
				d[i] = 0
			}
		}
	}
	vocab := make([]string, r)
	for i := range vocab {
		vocab[i] = string(rune('A' + i))
	}
	var topics [][]int32
	for k := range 5 {
		var topic []int32
		for j := range 6 {
			topic = append(topic, int32((k*6+j)%r))
		}
		topics = append(topics, topic)
	}
	var first map[Measure][]float64
	for _, w := range []int{1, 2, 5} {
		got, err := Score(Reference{Vocab: vocab, Docs: docs}, topics, All, Options{Pool: parallel.NewPool(w)})
		if err != nil {
			t.Fatal(err)
		}
		if first == nil {
			first = got
			continue
		}
		for _, m := range All {
			for k := range topics {
				if math.Float64bits(got[m][k]) != math.Float64bits(first[m][k]) {
					t.Fatalf("%d workers: %s topic %d = %v, 1 worker %v", w, m, k, got[m][k], first[m][k])
				}
			}
		}
	}
}

func TestScoreErrors(t *testing.T) {
	ref := Reference{Vocab: []string{"a", "b", "c"}, Docs: [][]int32{{0, 1}}}
	for _, c := range []struct {
		topics [][]int32
		want   string
	}{
		{[][]int32{{0, 5}}, "coherence: topic 0: term id 5 outside the vocabulary of 3 terms"},
		{[][]int32{{0, 0}}, `coherence: topic 0 lists "a" twice`},
	} {
		_, err := Score(ref, c.topics, []Measure{NPMI}, Options{})
		if err == nil || err.Error() != c.want {
			t.Errorf("%v: error %v, want %q", c.topics, err, c.want)
		}
	}
	// "c" occurs in no document: its topic scores NaN, the other is scored.
	got, err := Score(ref, [][]int32{{0, 2}, {0, 1}}, []Measure{NPMI, UMass}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []Measure{NPMI, UMass} {
		if !math.IsNaN(got[m][0]) || math.IsNaN(got[m][1]) {
			t.Errorf("%s with an absent word: %v, want NaN then a score", m, got[m])
		}
	}
	if a := Absent(ref, [][]int32{{0, 2}, {2, 1}}); len(a) != 1 || a[0] != "c" {
		t.Errorf("Absent = %q, want [c]", a)
	}
	if _, err := ParseMeasures("npmi,bogus"); err == nil {
		t.Error("ParseMeasures accepted bogus")
	}
	if ms, err := ParseMeasures("c_v, npmi,cv"); err != nil || len(ms) != 2 || ms[0] != CV || ms[1] != NPMI {
		t.Errorf("ParseMeasures: %v %v", ms, err)
	}
}
