package synthetic

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/internal/matcmp"
)

// digest hashes everything Generate returns that is data.
func digest(c *engine.Corpus, tr *Truth) string {
	h := sha256.New()
	w := func(x any) { binary.Write(h, binary.LittleEndian, x) }
	for _, p := range c.D.RowPtr {
		w(int64(p))
	}
	w(c.D.ColIdx)
	w(c.D.Val)
	for _, l := range c.Labels {
		w(int64(l))
	}
	w(tr.Theta.RawMatrix().Data)
	w(tr.Topics().RawMatrix().Data)
	return fmt.Sprintf("%x", h.Sum(nil))
}

func TestDeterministic(t *testing.T) {
	c1, t1, err := Generate(Default())
	if err != nil {
		t.Fatal(err)
	}
	c2, t2, err := Generate(Default())
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(c1, c2) || !reflect.DeepEqual(t1, t2) {
		t.Fatal("same seed, different corpus")
	}
	// Golden digest of Default(), recorded from this implementation
	// (GeneratorVersion synthetic/1) and checked identical with
	// GOMAXPROCS=1 and GOMAXPROCS=2: it changes only if the sampling
	// changes, and then GeneratorVersion must change too.
	const golden = "5d2885278df536c565eed4427b5488df7651be717cded09cf593d65d9524dda2"
	if got := digest(c1, t1); got != golden {
		t.Errorf("digest of Default() = %s, want %s (GOMAXPROCS-dependent, or the generator changed without a GeneratorVersion bump)", got, golden)
	}
	cfg := Default()
	cfg.Seed = 2
	c3, t3, _ := Generate(cfg)
	if digest(c3, t3) == digest(c1, t1) {
		t.Error("different seeds, same corpus")
	}
}

func TestShapesAndTruth(t *testing.T) {
	cfg := Default()
	c, tr, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if c.Terms() != 2000 || c.Docs() != 1500 || c.Classes() != 5 || c.Vocab[42] != "w00042" || c.DocIDs[7] != "d00007" || c.ClassNames[3] != "c03" {
		t.Fatalf("shape %d×%d, %d classes, names %q %q %q", c.Terms(), c.Docs(), c.Classes(), c.Vocab[42], c.DocIDs[7], c.ClassNames[3])
	}
	if !reflect.DeepEqual(c.Labels, tr.Classes) {
		t.Error("corpus labels differ from planted classes")
	}
	count := make([]int, cfg.P)
	for _, l := range tr.Classes {
		count[l]++
	}
	if !reflect.DeepEqual(count, tr.ClassSizes) || !reflect.DeepEqual(count, []int{300, 300, 300, 300, 300}) {
		t.Errorf("class sizes %v, counted %v", tr.ClassSizes, count)
	}
	// Topics: distributions over TopicTerms = 2·2000/15 = 266 terms.
	topics := tr.Topics()
	if r, k := topics.Dims(); r != 2000 || k != 5+5*2 {
		t.Fatalf("topics %d×%d", r, k)
	}
	for k := 0; k < 15; k++ {
		s, nz := 0.0, 0
		for m := 0; m < 2000; m++ {
			if x := topics.At(m, k); x != 0 {
				s += x
				nz++
			}
		}
		if math.Abs(s-1) > 1e-12 || nz > 266 || nz < 200 {
			t.Errorf("topic %d: sum %v, %d non-zeros (support 266)", k, s, nz)
		}
	}
	for n := 0; n < c.Docs(); n++ {
		row := tr.Theta.RawRowView(n)
		s, sh := 0.0, 0.0
		for j, x := range row {
			s += x
			if j < cfg.Ks {
				sh += x
			}
		}
		if math.Abs(s-1) > 1e-12 || math.Abs(sh-0.5) > 1e-12 {
			t.Fatalf("doc %d: mixture sums to %v, shared part %v", n, s, sh)
		}
		idx, val := c.DT.Row(n)
		tot := 0.0
		for _, v := range val {
			tot += v
		}
		if int(tot) != tr.Lengths[n] || len(idx) == 0 {
			t.Fatalf("doc %d: %v tokens counted, length %d", n, tot, tr.Lengths[n])
		}
	}
	// The draws follow the planted model: the observed counts summed over
	// the documents of each class match the expected counts Σ L_n·U·θ_n
	// (cosine above 0.99; the sampling noise of 24,000 tokens per class
	// over ~1,000 terms keeps it near 0.995).
	for p := 0; p < cfg.P; p++ {
		obs := make([]float64, c.Terms())
		exp := make([]float64, c.Terms())
		for n := 0; n < c.Docs(); n++ {
			if tr.Classes[n] != p {
				continue
			}
			idx, val := c.DT.Row(n)
			for k, m := range idx {
				obs[m] += val[k]
			}
			th := tr.Theta.RawRowView(n)
			for j, x := range th {
				var col int
				if j < cfg.Ks {
					col = j
				} else {
					col = cfg.Ks + p*cfg.Kc + j - cfg.Ks
				}
				for m := range exp {
					exp[m] += float64(tr.Lengths[n]) * x * topics.At(m, col)
				}
			}
		}
		if cs := matcmp.Cosine(obs, exp); cs < 0.99 {
			t.Errorf("class %d: observed vs expected counts cosine %v", p, cs)
		}
	}
}

func TestTFIDF(t *testing.T) {
	cfg := Default()
	cfg.N, cfg.M = 300, 400
	ctf, _, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Weighting = "tfidf"
	cid, _, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for m := 0; m < ctf.Terms(); m++ {
		idx, val := ctf.D.Row(m)
		idf := math.Log(float64(ctf.Docs()) / float64(len(idx)))
		for k, n := range idx {
			if got, want := cid.D.At(m, int(n)), val[k]*idf; got != want {
				t.Fatalf("tfidf[%d,%d] = %v, want %v", m, n, got, want)
			}
		}
	}
}

func TestBenchmarkSize(t *testing.T) {
	if testing.Short() {
		t.Skip("short mode: the benchmark corpus takes a few tenths of a second")
	}
	c, tr, err := Generate(Benchmark())
	if err != nil {
		t.Fatal(err)
	}
	if c.Terms() != 30000 || c.Docs() != 20000 || c.D.NNZ() < 1_550_000 || c.D.NNZ() > 1_650_000 {
		t.Errorf("benchmark corpus %d×%d with %d non-zeros, want 30000×20000 with about 1.6M", c.Terms(), c.Docs(), c.D.NNZ())
	}
	t.Logf("Benchmark(): %d×%d, nnz %d, warnings %q", c.Terms(), c.Docs(), c.D.NNZ(), tr.Warnings)
}

func TestClassSizes(t *testing.T) {
	// At the paper's own N and P the Table 5 rows come back (up to
	// rounding to whole documents).
	for _, row := range []struct {
		kind string
		want SizeStats
		n    int
	}{
		{ClassWikipedia, Table5Wikipedia, 2807535}, // N from GMF §7.1
		{ClassWeb1, Table5Web1, 3184138},
	} {
		sizes, warn, err := ClassSizes(row.n, row.want.Classes, ClassSpec{Kind: row.kind})
		if err != nil || len(warn) > 0 {
			t.Fatalf("%s: %v %q", row.kind, err, warn)
		}
		got := Stats(sizes)
		for _, f := range []struct {
			name      string
			got, want float64
		}{{"Min", got.Min, row.want.Min}, {"Max", got.Max, row.want.Max}, {"STD", got.STD, row.want.STD}} {
			if math.Abs(f.got/f.want-1) > 0.002 {
				t.Errorf("%s: %s = %v, Table 5 %v", row.kind, f.name, f.got, f.want)
			}
		}
		// Table 5 means times the class counts are 4 documents off §7.1 N for
		// Web-I (3,184,134 vs 3,184,138): relative 1.3e-6.
		if math.Abs(got.Mean/row.want.Mean-1) > 1e-5 || math.Abs(got.CV-row.want.CV) > 1e-4 {
			t.Errorf("%s: mean %v CV %v, Table 5 %v %v", row.kind, got.Mean, got.CV, row.want.Mean, row.want.CV)
		}
	}
	// Scaled down, the CV stays near the target.
	for _, tc := range []struct {
		n, p int
		spec ClassSpec
		cv   float64
		tol  float64
	}{
		{20000, 25, ClassSpec{Kind: ClassWikipedia}, Table5Wikipedia.CV, 0.005},
		{20000, 204, ClassSpec{Kind: ClassWeb1}, Table5Web1.CV, 0.005},
		{20000, 10, ClassSpec{Kind: ClassCV, CV: 0.7}, 0.7, 0.002},
		{20000, 25, ClassSpec{Kind: ClassCV, CV: 1.8}, 1.8, 0.002},
		{1500, 5, ClassSpec{Kind: ClassWikipedia}, Table5Wikipedia.CV, 0.005}, // log-normal fallback
		{10, 3, ClassSpec{}, 0.1414, 0.001},                                   // 3,3,4: std sqrt(2/9) / mean 10/3
	} {
		sizes, warn, err := ClassSizes(tc.n, tc.p, tc.spec)
		if err != nil {
			t.Fatalf("%+v: %v", tc, err)
		}
		s := Stats(sizes)
		total := 0
		for _, x := range sizes {
			total += x
			if x < 1 {
				t.Errorf("%+v: empty class", tc)
			}
		}
		if total != tc.n || len(sizes) != tc.p || math.Abs(s.CV-tc.cv) > tc.tol {
			t.Errorf("%+v: %d classes, %d documents, CV %v (want %v)", tc, len(sizes), total, s.CV, tc.cv)
		}
		if (tc.p == 5) != (len(warn) == 1) {
			t.Errorf("%+v: warnings %q", tc, warn)
		}
	}
	// Truth carries the stats; a Generate with a Table 5 shape.
	cfg := Default()
	cfg.N, cfg.P, cfg.Classes = 3000, 25, ClassSpec{Kind: ClassWikipedia}
	_, tr, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	if math.Abs(tr.ClassStats.CV-Table5Wikipedia.CV) > 0.01 {
		t.Errorf("generated class-size CV %v", tr.ClassStats.CV)
	}
	for _, tc := range []struct {
		n, p int
		spec ClassSpec
	}{
		{10, 0, ClassSpec{}}, {3, 4, ClassSpec{}}, {100, 3, ClassSpec{Kind: ClassWikipedia}},
		{100, 5, ClassSpec{Kind: ClassCV, CV: 2}}, {100, 5, ClassSpec{Kind: ClassCV, CV: -1}}, {100, 5, ClassSpec{Kind: "zipf"}},
	} {
		if _, _, err := ClassSizes(tc.n, tc.p, tc.spec); err == nil {
			t.Errorf("ClassSizes(%d, %d, %+v) accepted", tc.n, tc.p, tc.spec)
		}
	}
	if s, _, err := ClassSizes(1, 1, ClassSpec{Kind: ClassCV, CV: 0}); err != nil || !reflect.DeepEqual(s, []int{1}) {
		t.Errorf("one class: %v %v", s, err)
	}
}

func TestValidate(t *testing.T) {
	for _, tc := range []struct {
		edit  func(*Config)
		field string
	}{
		{func(c *Config) { c.M = 0 }, "M ="},
		{func(c *Config) { c.N = 0 }, "N ="},
		{func(c *Config) { c.P = 0 }, "P ="},
		{func(c *Config) { c.P = 2000 }, "P ="},
		{func(c *Config) { c.Ks, c.Kc = 0, 0 }, "Ks"},
		{func(c *Config) { c.Kc = -1 }, "Kc"},
		{func(c *Config) { c.TopicTerms = 5000 }, "TopicTerms"},
		{func(c *Config) { c.TopicBeta = math.NaN() }, "TopicBeta"},
		{func(c *Config) { c.Alpha = -1 }, "Alpha"},
		{func(c *Config) { c.SharedFraction = 1 }, "SharedFraction"},
		{func(c *Config) { c.Length.Dist = "zipf" }, "Length.Dist"},
		{func(c *Config) { c.Length.Mean = 0.5 }, "Length.Mean"},
		{func(c *Config) { c.Length.Sigma = math.Inf(1) }, "Length.Sigma"},
		{func(c *Config) { c.Weighting = "bm25" }, "Weighting"},
		{func(c *Config) { c.Classes = ClassSpec{Kind: ClassCV, CV: 5} }, "Classes"},
	} {
		cfg := Default()
		tc.edit(&cfg)
		err := cfg.Validate()
		if err == nil || !strings.Contains(err.Error(), tc.field) {
			t.Errorf("want an error naming %s, got %v", tc.field, err)
		}
		if _, _, err := Generate(cfg); err == nil {
			t.Errorf("Generate accepted a config with bad %s", tc.field)
		}
	}
	for _, name := range []string{"default", "benchmark", "wikipedia-like", "web1-like"} {
		cfg, err := Preset(name)
		if err != nil || cfg.Validate() != nil {
			t.Errorf("preset %s: %v %v", name, err, cfg.Validate())
		}
	}
	if _, err := Preset("huge"); err == nil {
		t.Error("unknown preset accepted")
	}
	// Canonical fills defaults.
	a := Default()
	b := Default()
	b.TopicBeta, b.Alpha, b.SharedFraction, b.Weighting = 0.5, 0.5, 0.5, "tf"
	if a.Canonical() != b.Canonical() || !strings.Contains(a.Canonical(), GeneratorVersion) {
		t.Errorf("Canonical: %s vs %s", a.Canonical(), b.Canonical())
	}
	b.Seed = 9
	if a.Canonical() == b.Canonical() {
		t.Error("Canonical ignores the seed")
	}
}

func TestEdgeConfigs(t *testing.T) {
	for _, cfg := range []Config{
		{M: 1, N: 1, P: 1, Ks: 1, Length: LengthSpec{Mean: 1}},                                                // smallest
		{M: 50, N: 40, P: 4, Kc: 3, Length: LengthSpec{Dist: LengthLogNormal, Mean: 20}},                      // no shared topics
		{M: 50, N: 40, P: 1, Ks: 3, Length: LengthSpec{Mean: 20}, Alpha: 0.001, TopicBeta: 0.001},             // tiny concentrations
		{M: 5, N: 40, P: 4, Ks: 3, Kc: 2, Length: LengthSpec{Mean: 700}},                                      // K > M, long documents
		{M: 100, N: 30, P: 3, Ks: 2, Kc: 1, Length: LengthSpec{Mean: 5}, Classes: ClassSpec{Kind: ClassWeb1}}, // Web-I shape, tiny
	} {
		c, tr, err := Generate(cfg)
		if err != nil {
			t.Fatalf("%+v: %v", cfg, err)
		}
		if c.Terms() != cfg.M || c.Docs() != cfg.N || len(tr.Classes) != cfg.N {
			t.Errorf("%+v: %d×%d", cfg, c.Terms(), c.Docs())
		}
		for n := 0; n < cfg.N; n++ {
			if c.DT.RowPtr[n+1] == c.DT.RowPtr[n] {
				t.Errorf("%+v: document %d is empty", cfg, n)
			}
		}
	}
}

func TestSamplers(t *testing.T) {
	r := engine.NewRand(7)
	// Poisson(λ) (the Gamma draws are engine.Gamma's, tested there): mean and variance λ, including λ above one chunk.
	for _, l := range []float64{0, 0.5, 80, 1200} {
		const n = 4000
		var s, ss float64
		for range n {
			x := float64(poisson(r, l))
			s += x
			ss += x * x
		}
		mean := s / n
		v := ss/n - mean*mean
		if math.Abs(mean-l) > 5*math.Sqrt(l/n)+1e-12 || (l > 0 && math.Abs(v/l-1) > 0.15) {
			t.Errorf("Poisson(%v): mean %v var %v", l, mean, v)
		}
	}
	// Alias table frequencies: weights 0, 1, 2, 7 over 100,000 draws.
	a := newAlias([]int32{10, 11, 12, 13}, []float64{0, 1, 2, 7})
	count := map[int32]int{}
	for range 100000 {
		count[a.draw(r)]++
	}
	for i, w := range []float64{0, 0.1, 0.2, 0.7} {
		p := float64(count[int32(10+i)]) / 100000
		if math.Abs(p-w) > 5*math.Sqrt(w*(1-w)/100000)+1e-12 {
			t.Errorf("alias item %d: frequency %v, want %v", 10+i, p, w)
		}
	}
	d := make([]float64, 6)
	dirichlet(r, 1e-9, 0.3, d)
	s := 0.0
	for _, x := range d {
		s += x
	}
	if math.Abs(s-0.3) > 1e-15 {
		t.Errorf("Dirichlet with tiny alpha sums to %v", s)
	}
}

// BenchmarkGenerate measures Benchmark(): 30,000 × 20,000 with ≈1.6M
// non-zeros.
func BenchmarkGenerate(b *testing.B) {
	cfg := Benchmark()
	var nnz int
	for b.Loop() {
		c, _, err := Generate(cfg)
		if err != nil {
			b.Fatal(err)
		}
		nnz = c.D.NNZ()
	}
	b.ReportMetric(float64(nnz), "nnz")
}

// TestDeterministicLarge pins the digest of a corpus large enough (1.4 M
// stored entries) for FromRows, the transposes and the tf-idf weighting to
// share their work among the default pool's workers. The golden digest was
// recorded from the implementation before they did (commit ea91c9d, one
// goroutine each), so it checks that the parallel assembly changed no bit.
func TestDeterministicLarge(t *testing.T) {
	if testing.Short() {
		t.Skip("generates 25,000 documents")
	}
	cfg := Config{Name: "large", M: 2000, N: 25000, P: 5, Ks: 4, Kc: 2,
		Length: LengthSpec{Dist: LengthPoisson, Mean: 60}, Weighting: "tfidf", Seed: 4}
	c, tr, err := Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	const golden = "91001d1d6f3da13056b4622ab136604a26caccc54c28de9741a2b6bba85cb0dc"
	if got := digest(c, tr); got != golden {
		t.Errorf("digest = %s, want %s", got, golden)
	}
	if dt := c.D.T(); !reflect.DeepEqual(dt, c.DT) {
		t.Error("DT is not the transpose of D")
	}
}
