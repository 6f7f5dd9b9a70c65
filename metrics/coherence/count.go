package coherence

import (
	"github.com/topicmf/topicmf/engine/parallel"
)

// counts holds, for one way of cutting the reference corpus into contexts
// (whole documents, or sliding windows of one size), the number of
// contexts, the number of contexts holding each relevant word, and the
// number holding each pair of relevant words. Counts are integers, so their
// sum over the blocks of the corpus is the same in any order: the result is
// bit-identical for any number of workers.
type counts struct {
	r        int     // relevant words
	contexts int64   // documents or windows
	occ      []int64 // occ[a]: contexts holding word a
	co       []int64 // co[pair(a,b)], a < b: contexts holding both
}

func newCounts(r int) *counts {
	return &counts{r: r, occ: make([]int64, r), co: make([]int64, r*(r-1)/2+1)}
}

// pair is the index of the unordered pair {a, b}, a ≠ b, in co.
func (c *counts) pair(a, b int32) int {
	if a > b {
		a, b = b, a
	}
	i, j := int(a), int(b)
	return i*(2*c.r-i-1)/2 + (j - i - 1)
}

// joint is the number of contexts holding both a and b (a == b: holding a).
func (c *counts) joint(a, b int32) int64 {
	if a == b {
		return c.occ[a]
	}
	return c.co[c.pair(a, b)]
}

func (c *counts) add(o *counts) {
	c.contexts += o.contexts
	for i, x := range o.occ {
		c.occ[i] += x
	}
	for i, x := range o.co {
		c.co[i] += x
	}
}

// slider counts the contexts of one document. Instead of visiting every
// pair of every window, it records when each word entered the current set
// of present words and adds, when a word leaves, the number of windows it
// spent there (alone and with each word still present): the work is
// proportional to the changes of the set, not to windows × pairs.
type slider struct {
	c      *counts
	active []int32 // words present in the current window
	pos    []int32 // pos[a]: index of a in active, or -1
	start  []int64 // start[a]: first window of a's current stay
	inWin  []int32 // exact mode: occurrences of a in the current window
}

func newSlider(c *counts) *slider {
	s := &slider{c: c, pos: make([]int32, c.r), start: make([]int64, c.r), inWin: make([]int32, c.r)}
	for i := range s.pos {
		s.pos[i] = -1
	}
	return s
}

func (s *slider) enter(a int32, t int64) {
	if s.pos[a] >= 0 {
		return
	}
	s.pos[a] = int32(len(s.active))
	s.active = append(s.active, a)
	s.start[a] = t
}

// leave removes a, present since start[a], at window t (the first window
// without it).
func (s *slider) leave(a int32, t int64) {
	p := s.pos[a]
	if p < 0 {
		return
	}
	s.c.occ[a] += t - s.start[a]
	for _, b := range s.active {
		if b != a {
			s.c.co[s.c.pair(a, b)] += t - max(s.start[a], s.start[b])
		}
	}
	last := s.active[len(s.active)-1]
	s.active[p] = last
	s.pos[last] = p
	s.active = s.active[:len(s.active)-1]
	s.pos[a] = -1
}

// document counts the contexts of one document whose tokens are relevant
// word indices or -1 (any other token). window ≤ 0 makes the whole
// document one context (boolean document), even an empty one, as gensim's
// u_mass counts it; otherwise a document of L ≥ window tokens has
// L − window + 1 windows, a shorter non-empty one is a single window, as
// gensim's iter_windows yields it, and an empty one has none.
//
// exact selects the set of words of each window. With exact false it is
// gensim's (WordOccurrenceAccumulator._slide_window): the first window's
// distinct words, then at each step the token that left is unmarked even if
// it still occurs inside the window, and the token that entered is marked.
// With exact true it is the set of distinct words actually in the window,
// the boolean sliding window of Röder et al. (WSDM 2015, §3.2).
func (s *slider) document(doc []int32, window int, exact bool) {
	L := len(doc)
	if window > 0 && L == 0 {
		return // an empty document has no window (gensim 4.2 fails on one)
	}
	if window <= 0 || L < window {
		for _, a := range doc {
			if a >= 0 {
				s.enter(a, 0)
			}
		}
		s.flush(1)
		return
	}
	windows := int64(L - window + 1)
	for _, a := range doc[:window] {
		if a >= 0 {
			s.inWin[a]++
			s.enter(a, 0)
		}
	}
	for t := int64(1); t < windows; t++ {
		out, in := doc[t-1], doc[int(t)+window-1]
		if out >= 0 {
			s.inWin[out]--
			if !exact || s.inWin[out] == 0 {
				s.leave(out, t)
			}
		}
		if in >= 0 {
			s.inWin[in]++
			s.enter(in, t)
		}
	}
	for _, a := range doc[L-window:] {
		if a >= 0 {
			s.inWin[a] = 0
		}
	}
	s.flush(windows)
}

// flush ends the document after its n contexts.
func (s *slider) flush(n int64) {
	for len(s.active) > 0 {
		s.leave(s.active[len(s.active)-1], n)
	}
	s.c.contexts += n
}

// docBlock is the number of documents of one block of the parallel loop.
const docBlock = 256

// count makes one pass over the reference corpus and returns, for each
// requested window size (0: whole documents), the counts of the r relevant
// words. relevant maps a term id to its relevant index or -1.
func count(docs [][]int32, relevant []int32, r int, windows []int, exact bool, pool *parallel.Pool) []*counts {
	type worker struct {
		counts  []*counts
		sliders []*slider
		buf     []int32
	}
	free := make(chan *worker, pool.Workers()+1)
	var all []*worker
	for range pool.Workers() + 1 {
		w := &worker{}
		for range windows {
			c := newCounts(r)
			w.counts = append(w.counts, c)
			w.sliders = append(w.sliders, newSlider(c))
		}
		free <- w
		all = append(all, w)
	}
	pool.For(len(docs), docBlock, func(_, lo, hi int) {
		w := <-free
		defer func() { free <- w }()
		for _, doc := range docs[lo:hi] {
			w.buf = w.buf[:0]
			for _, t := range doc {
				a := int32(-1)
				if t >= 0 && int(t) < len(relevant) {
					a = relevant[t]
				}
				w.buf = append(w.buf, a)
			}
			for i, win := range windows {
				w.sliders[i].document(w.buf, win, exact)
			}
		}
	})
	out := all[0].counts
	for _, w := range all[1:] {
		for i := range out {
			out[i].add(w.counts[i])
		}
	}
	return out
}
