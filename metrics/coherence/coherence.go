package coherence

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/topicmf/topicmf/engine/parallel"
)

// Measure names a coherence measure.
type Measure string

// The four measures, named as on the command line.
const (
	UMass Measure = "umass" // gensim "u_mass"
	UCI   Measure = "uci"   // gensim "c_uci"
	NPMI  Measure = "npmi"  // gensim "c_npmi"
	CV    Measure = "cv"    // gensim "c_v"
)

// All lists every measure, in the order reports show them.
var All = []Measure{NPMI, CV, UMass, UCI}

// Defaults of Options (gensim's CoherenceModel and Röder et al.).
const (
	DefaultTopN     = 10    // top words per topic
	DefaultWindow   = 10    // UCI and NPMI sliding window
	DefaultCVWindow = 110   // C_V sliding window
	GensimEpsilon   = 1e-12 // gensim's ε, added to probabilities
	PaperUMassEps   = 1.0   // Mimno et al.'s ε, added to the count
)

// ParseMeasures reads a comma-separated list of measures ("npmi,cv"),
// "all", or "off" (no measure: nil).
func ParseMeasures(s string) ([]Measure, error) {
	s = strings.TrimSpace(strings.ToLower(s))
	switch s {
	case "off", "none", "":
		return nil, nil
	case "all":
		return append([]Measure(nil), All...), nil
	}
	var out []Measure
	seen := map[Measure]bool{}
	for _, f := range strings.Split(s, ",") {
		m := Measure(strings.TrimSpace(f))
		switch m {
		case UMass, UCI, NPMI, CV:
		case "u_mass":
			m = UMass
		case "c_uci":
			m = UCI
		case "c_npmi":
			m = NPMI
		case "c_v":
			m = CV
		default:
			return nil, fmt.Errorf("unknown coherence measure %q (want off, all, or a list of npmi, cv, umass, uci)", f)
		}
		if !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	return out, nil
}

// Options are the parameters of Score. The zero value is gensim's
// CoherenceModel (processes=1) with its default windows.
type Options struct {
	// Window is the sliding window of UCI and NPMI (0: DefaultWindow);
	// CVWindow that of C_V (0: DefaultCVWindow).
	Window, CVWindow int
	// Epsilon is the smoothing constant: 0 means GensimEpsilon, added to the
	// joint probability, or with Paper PaperUMassEps, added to UMass's
	// co-document count (NPMI and UCI then use GensimEpsilon).
	Epsilon float64
	// Gamma is the exponent of C_V's context vectors (0: 1, as in gensim
	// and in Röder et al.'s C_V).
	Gamma float64
	// Paper selects the papers' definitions instead of gensim's: windows
	// hold exactly their distinct words, UMass adds ε = 1 to the count
	// (Mimno et al.), and NPMI of two words that never co-occur is −1
	// (Bouma). See the package documentation.
	Paper bool
	// Pool runs the counting pass (nil: the default pool).
	Pool *parallel.Pool
}

func (o Options) window() int {
	if o.Window > 0 {
		return o.Window
	}
	return DefaultWindow
}

func (o Options) cvWindow() int {
	if o.CVWindow > 0 {
		return o.CVWindow
	}
	return DefaultCVWindow
}

func (o Options) gamma() float64 {
	if o.Gamma != 0 {
		return o.Gamma
	}
	return 1
}

// epsilon is the smoothing constant of UMass (umass true) or of the
// window measures.
func (o Options) epsilon(umass bool) float64 {
	if o.Epsilon != 0 && (umass || !o.Paper) {
		return o.Epsilon
	}
	if umass && o.Paper {
		return PaperUMassEps
	}
	return GensimEpsilon
}

// Reference is a reference corpus: every document's tokens in text order,
// as term ids into Vocab. Tokens outside the vocabulary may be left out
// or given as -1 (they hold a place in a window either way only if kept).
type Reference struct {
	Vocab []string
	Docs  [][]int32
}

// Score returns, for each measure, the coherence of every topic (a list of
// term ids into ref.Vocab, best first, typically the top DefaultTopN
// words). All measures are counted in one pass over ref. A topic of fewer
// than two words scores NaN, and so does a topic with a word that occurs in
// no reference document (its probability is zero; gensim refuses such a
// topic): Absent lists them. It is an error for a topic word to be outside
// the vocabulary or listed twice.
func Score(ref Reference, topics [][]int32, measures []Measure, opt Options) (map[Measure][]float64, error) {
	if len(measures) == 0 {
		return map[Measure][]float64{}, nil
	}
	relevant := make([]int32, len(ref.Vocab))
	for i := range relevant {
		relevant[i] = -1
	}
	var words []int32 // relevant index → term id
	local := make([][]int32, len(topics))
	for k, topic := range topics {
		seen := map[int32]bool{}
		for _, t := range topic {
			if t < 0 || int(t) >= len(ref.Vocab) {
				return nil, fmt.Errorf("coherence: topic %d: term id %d outside the vocabulary of %d terms", k, t, len(ref.Vocab))
			}
			if seen[t] {
				return nil, fmt.Errorf("coherence: topic %d lists %q twice", k, ref.Vocab[t])
			}
			seen[t] = true
			if relevant[t] < 0 {
				relevant[t] = int32(len(words))
				words = append(words, t)
			}
			local[k] = append(local[k], relevant[t])
		}
	}
	// One context kind per distinct window: 0 (documents), window, CV window.
	var windows []int
	kind := map[Measure]int{}
	for _, m := range measures {
		w := 0
		switch m {
		case UMass:
		case UCI, NPMI:
			w = opt.window()
		case CV:
			w = opt.cvWindow()
		default:
			return nil, fmt.Errorf("coherence: unknown measure %q", m)
		}
		i := indexOf(windows, w)
		if i < 0 {
			i = len(windows)
			windows = append(windows, w)
		}
		kind[m] = i
	}
	r := len(words)
	if r == 0 {
		r = 1
	}
	cs := count(ref.Docs, relevant, r, windows, opt.Paper, opt.Pool)
	// A word in no context has no probability: its topics score NaN.
	absent := make([]bool, len(words))
	for _, c := range cs {
		for i := range words {
			absent[i] = absent[i] || c.occ[i] == 0
		}
	}
	out := map[Measure][]float64{}
	for _, m := range measures {
		c := cs[kind[m]]
		scores := make([]float64, len(topics))
		for k, topic := range local {
			if len(topic) < 2 || slices.ContainsFunc(topic, func(a int32) bool { return absent[a] }) {
				scores[k] = math.NaN()
				continue
			}
			switch m {
			case UMass:
				scores[k] = umass(c, topic, opt)
			case UCI:
				scores[k] = direct(c, topic, func(a, b int32) float64 { return pmi(c, a, b, opt) })
			case NPMI:
				scores[k] = direct(c, topic, func(a, b int32) float64 { return npmi(c, a, b, opt) })
			case CV:
				scores[k] = cv(c, topic, opt)
			}
		}
		out[m] = scores
	}
	return out, nil
}

func indexOf(xs []int, x int) int {
	for i, y := range xs {
		if y == x {
			return i
		}
	}
	return -1
}

// umass is the mean over the pairs (w_i, w_j), j < i, of
// log((D(w_i,w_j)/N + ε) / (D(w_j)/N)) (gensim's log_conditional_probability
// on s_one_pre segments) or, with Paper, log((D(w_i,w_j) + ε) / D(w_j))
// (Mimno et al., EMNLP 2011, Eq. 1, averaged instead of summed).
func umass(c *counts, topic []int32, opt Options) float64 {
	n := float64(c.contexts)
	eps := opt.epsilon(true)
	var sum float64
	pairs := 0
	for i := 1; i < len(topic); i++ {
		for j := range i {
			co, star := float64(c.joint(topic[i], topic[j])), float64(c.occ[topic[j]])
			if opt.Paper {
				sum += math.Log((co + eps) / star)
			} else {
				sum += math.Log((co/n + eps) / (star / n))
			}
			pairs++
		}
	}
	return sum / float64(pairs)
}

// direct is the mean of m over the ordered pairs (w_i, w_j), i ≠ j, of the
// topic (gensim's s_one_one segmentation; the measures are symmetric).
func direct(c *counts, topic []int32, m func(a, b int32) float64) float64 {
	var sum float64
	pairs := 0
	for i, a := range topic {
		for j, b := range topic {
			if i != j {
				sum += m(a, b)
				pairs++
			}
		}
	}
	return sum / float64(pairs)
}

// pmi is log((P(a,b) + ε) / (P(a) P(b))) with probabilities over the
// contexts (Röder et al., WSDM 2015, m_lr; Newman et al., NAACL 2010).
func pmi(c *counts, a, b int32, opt Options) float64 {
	n := float64(c.contexts)
	num := float64(c.joint(a, b))/n + opt.epsilon(false)
	den := (float64(c.occ[a]) / n) * (float64(c.occ[b]) / n)
	return math.Log(num / den)
}

// npmi is pmi / −log(P(a,b) + ε) (Röder et al. m_nlr; Bouma 2009). With
// Paper, two words that never share a context score −1 (Bouma's limit)
// and no ε is added otherwise.
func npmi(c *counts, a, b int32, opt Options) float64 {
	n := float64(c.contexts)
	p := float64(c.joint(a, b)) / n
	if opt.Paper {
		if p == 0 {
			return -1
		}
		if p == 1 {
			return 1
		}
		pa, pb := float64(c.occ[a])/n, float64(c.occ[b])/n
		return math.Log(p/(pa*pb)) / -math.Log(p)
	}
	return pmi(c, a, b, opt) / -math.Log(p+opt.epsilon(false))
}

// cv is C_V (Röder et al., WSDM 2015, §3 and Table 2): for each topic word
// w_i, the cosine between its context vector v(w_i)_j = NPMI(w_i, w_j)^γ
// and that of the whole topic, v(W)_j = Σ_i NPMI(w_i, w_j)^γ, over the
// topic words j (one-set segmentation, indirect confirmation), averaged
// over i.
func cv(c *counts, topic []int32, opt Options) float64 {
	n := len(topic)
	gamma := opt.gamma()
	sim := make([]float64, n*n)
	for i, a := range topic {
		for j, b := range topic {
			s := npmi(c, a, b, opt)
			if gamma != 1 {
				s = math.Pow(s, gamma)
			}
			sim[i*n+j] = s
		}
	}
	whole := make([]float64, n)
	for j := range n {
		for i := range n {
			whole[j] += sim[i*n+j]
		}
	}
	wholeNorm := norm(whole)
	var sum float64
	for i := range n {
		v := sim[i*n : (i+1)*n]
		var dot float64
		for j := range n {
			dot += v[j] * whole[j]
		}
		sum += dot / (norm(v) * wholeNorm)
	}
	return sum / float64(n)
}

func norm(x []float64) float64 {
	var ss float64
	for _, v := range x {
		ss += v * v
	}
	return math.Sqrt(ss)
}

// Mean is the mean of the finite scores and how many there were (topics
// of fewer than two words score NaN and are left out).
func Mean(scores []float64) (float64, int) {
	var sum float64
	n := 0
	for _, s := range scores {
		if !math.IsNaN(s) && !math.IsInf(s, 0) {
			sum += s
			n++
		}
	}
	if n == 0 {
		return math.NaN(), 0
	}
	return sum / float64(n), n
}

// Absent returns the words of the topics (term ids into ref.Vocab) that
// occur in no document of ref: a topic holding one scores NaN.
func Absent(ref Reference, topics [][]int32) []string {
	present := make([]bool, len(ref.Vocab))
	for _, doc := range ref.Docs {
		for _, t := range doc {
			if t >= 0 && int(t) < len(present) {
				present[t] = true
			}
		}
	}
	var out []string
	seen := map[int32]bool{}
	for _, topic := range topics {
		for _, t := range topic {
			if t >= 0 && int(t) < len(present) && !present[t] && !seen[t] {
				seen[t] = true
				out = append(out, ref.Vocab[t])
			}
		}
	}
	return out
}
