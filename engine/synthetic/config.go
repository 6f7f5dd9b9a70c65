package synthetic

import (
	"cmp"
	"encoding/json"
	"fmt"
	"math"
)

// Document-length distributions accepted by LengthSpec.Dist.
const (
	LengthPoisson   = "poisson"   // 1 + Poisson(Mean − 1)
	LengthLogNormal = "lognormal" // max(1, round(exp(μ + σZ))), μ = ln Mean − σ²/2
)

// LengthSpec is the distribution of document lengths (tokens per document).
type LengthSpec struct {
	// Dist is "poisson" (also "") or "lognormal".
	Dist string
	// Mean is the mean length in tokens (>= 1).
	Mean float64
	// Sigma is σ of the log-normal (0 means 0.5); unused for Poisson.
	Sigma float64
}

// Config describes a synthetic corpus drawn from planted topics in the
// group structure of GMF (Wang et al., SIGIR 2012, §3): Ks topics shared by
// all classes and Kc topics specific to each of the P classes.
type Config struct {
	// Name of the corpus ("" means "synthetic").
	Name string
	// M terms, N documents, P classes (1 <= P <= N).
	M, N, P int
	// Ks shared topics and Kc topics per class (Ks + Kc >= 1).
	Ks, Kc int
	// TopicTerms is the number of terms each topic puts its mass on (its
	// support, drawn uniformly without replacement); 0 means
	// min(M, max(10, 2M/K)) with K = Ks + P·Kc, so that supports overlap
	// moderately.
	TopicTerms int
	// TopicBeta is the concentration of the symmetric Dirichlet drawing a
	// topic's weights on its support; 0 means 0.5 (a few heavy terms per
	// topic, as in real topics).
	TopicBeta float64
	// Alpha is the concentration of the symmetric Dirichlet drawing a
	// document's mixture within the shared and within its class topics; 0
	// means 0.5.
	Alpha float64
	// SharedFraction is the share of every document's topic mass on the
	// shared topics (the rest on its class topics), in (0, 1); 0 means 0.5.
	// It is 1 when Kc = 0 and 0 when Ks = 0, whatever is set here.
	SharedFraction float64
	// Length is the document-length distribution.
	Length LengthSpec
	// Classes is the class-size distribution.
	Classes ClassSpec
	// Weighting is "tf" (also "": raw counts) or "tfidf" (tf·ln(N/df), as
	// in datasets/text).
	Weighting string
	// Seed fixes every random draw.
	Seed uint64
}

// Default is the small configuration for quick runs and tests: 2,000 terms,
// 1,500 documents, 5 equal classes, Ks = 5, Kc = 2, mean length 80.
func Default() Config {
	return Config{Name: "synthetic-default", M: 2000, N: 1500, P: 5, Ks: 5, Kc: 2,
		Length: LengthSpec{Dist: LengthPoisson, Mean: 80}, Seed: 1}
}

// Benchmark is the benchmark matrix of the engine: 30,000 terms × 20,000
// documents with about 1.6 million non-zeros (10 equal classes, Ks = 20,
// Kc = 5, flat topic weights TopicBeta = 1 so that nearly every term is
// drawn, mean length 81 tokens giving about 80 distinct terms per
// document), raw counts.
func Benchmark() Config {
	return Config{Name: "synthetic-benchmark", M: 30000, N: 20000, P: 10, Ks: 20, Kc: 5, TopicBeta: 1,
		Length: LengthSpec{Dist: LengthPoisson, Mean: 81}, Seed: 1}
}

// Preset returns a named configuration: "default", "benchmark",
// "wikipedia-like" (25 classes with GMF Table 5's Wikipedia class sizes,
// (Ks, Kc) = (10, 4) as in GMF §7.1) or "web1-like" (204 classes with Web-I
// class sizes, (Ks, Kc) = (10, 5) as in GMF §7.1).
func Preset(name string) (Config, error) {
	switch name {
	case "default":
		return Default(), nil
	case "benchmark":
		return Benchmark(), nil
	case ClassWikipedia:
		return Config{Name: "synthetic-wikipedia-like", M: 5000, N: 10000, P: 25, Ks: 10, Kc: 4,
			Length: LengthSpec{Dist: LengthLogNormal, Mean: 100, Sigma: 0.5}, Classes: ClassSpec{Kind: ClassWikipedia}, Seed: 1}, nil
	case ClassWeb1:
		return Config{Name: "synthetic-web1-like", M: 10000, N: 20000, P: 204, Ks: 10, Kc: 5,
			Length: LengthSpec{Dist: LengthLogNormal, Mean: 100, Sigma: 0.5}, Classes: ClassSpec{Kind: ClassWeb1}, Seed: 1}, nil
	}
	return Config{}, fmt.Errorf("unknown synthetic preset %q (known: default, benchmark, wikipedia-like, web1-like)", name)
}

// normalized fills defaults.
func (c Config) normalized() Config {
	c.Name = cmp.Or(c.Name, "synthetic")
	k := c.Ks + c.P*c.Kc
	if c.TopicTerms == 0 && k > 0 {
		c.TopicTerms = min(c.M, max(10, 2*c.M/k))
	}
	c.TopicBeta = cmp.Or(c.TopicBeta, 0.5)
	c.Alpha = cmp.Or(c.Alpha, 0.5)
	c.SharedFraction = cmp.Or(c.SharedFraction, 0.5)
	if c.Kc == 0 {
		c.SharedFraction = 1
	}
	if c.Ks == 0 {
		c.SharedFraction = 0
	}
	c.Length.Dist = cmp.Or(c.Length.Dist, LengthPoisson)
	if c.Length.Dist == LengthLogNormal && c.Length.Sigma == 0 {
		c.Length.Sigma = 0.5
	}
	if c.Length.Dist == LengthPoisson {
		c.Length.Sigma = 0
	}
	c.Classes.Kind = cmp.Or(c.Classes.Kind, ClassUniform)
	if c.Classes.Kind != ClassCV {
		c.Classes.CV = 0
	}
	c.Weighting = cmp.Or(c.Weighting, "tf")
	return c
}

func badFloat(x float64) bool { return math.IsNaN(x) || math.IsInf(x, 0) }

// Validate reports the first invalid field, by name.
func (c Config) Validate() error {
	switch {
	case c.M < 1:
		return fmt.Errorf("synthetic config: M = %d terms, want >= 1", c.M)
	case c.N < 1:
		return fmt.Errorf("synthetic config: N = %d documents, want >= 1", c.N)
	case c.P < 1 || c.P > c.N:
		return fmt.Errorf("synthetic config: P = %d classes, want 1..N (N = %d)", c.P, c.N)
	case c.Ks < 0 || c.Kc < 0 || c.Ks+c.Kc < 1:
		return fmt.Errorf("synthetic config: Ks = %d, Kc = %d, want both >= 0 and Ks + Kc >= 1", c.Ks, c.Kc)
	case c.TopicTerms < 0 || c.TopicTerms > c.M:
		return fmt.Errorf("synthetic config: TopicTerms = %d, want 0..M (M = %d)", c.TopicTerms, c.M)
	case badFloat(c.TopicBeta) || c.TopicBeta < 0:
		return fmt.Errorf("synthetic config: TopicBeta = %v, want > 0 (0 means 0.5)", c.TopicBeta)
	case badFloat(c.Alpha) || c.Alpha < 0:
		return fmt.Errorf("synthetic config: Alpha = %v, want > 0 (0 means 0.5)", c.Alpha)
	case badFloat(c.SharedFraction) || c.SharedFraction < 0 || c.SharedFraction >= 1:
		return fmt.Errorf("synthetic config: SharedFraction = %v, want in (0, 1) (0 means 0.5)", c.SharedFraction)
	case c.Length.Dist != "" && c.Length.Dist != LengthPoisson && c.Length.Dist != LengthLogNormal:
		return fmt.Errorf("synthetic config: Length.Dist = %q, want poisson or lognormal", c.Length.Dist)
	case badFloat(c.Length.Mean) || c.Length.Mean < 1:
		return fmt.Errorf("synthetic config: Length.Mean = %v tokens, want >= 1", c.Length.Mean)
	case badFloat(c.Length.Sigma) || c.Length.Sigma < 0 || c.Length.Sigma > 5:
		return fmt.Errorf("synthetic config: Length.Sigma = %v, want in [0, 5] (0 means 0.5)", c.Length.Sigma)
	case c.Weighting != "" && c.Weighting != "tf" && c.Weighting != "tfidf":
		return fmt.Errorf("synthetic config: Weighting = %q, want tf or tfidf", c.Weighting)
	}
	if _, _, err := profile(c.P, c.Classes); err != nil {
		return fmt.Errorf("synthetic config: Classes: %w", err)
	}
	return nil
}

// Canonical returns a stable JSON form of the configuration with defaults
// filled in, for cache keys and run records.
func (c Config) Canonical() string {
	b, err := json.Marshal(struct {
		Generator string
		Config
	}{GeneratorVersion, c.normalized()})
	if err != nil { // cannot happen for these field types
		panic(err)
	}
	return string(b)
}

// GeneratorVersion names the sampling procedure; it changes whenever the
// same Config would give different bits.
const GeneratorVersion = "synthetic/1"
