// Package gensimref runs gensim's CoherenceModel (Debian's python3-gensim,
// through /usr/bin/python3) on the same token streams and topics as
// package coherence, for the tests that check the two agree. Without
// gensim a test skips, or fails under CI=true.
package gensimref

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/realdata"
	"github.com/topicmf/topicmf/metrics/coherence"
)

// Python is the reference interpreter.
const Python = "/usr/bin/python3"

// Script is the path of the script that runs gensim.
func Script() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "testdata", "gensim_coherence.py")
}

// Require skips the test (fails it under CI=true) unless gensim imports.
func Require(tb testing.TB) {
	tb.Helper()
	out, err := exec.Command(Python, "-c", "import gensim").CombinedOutput()
	if err != nil {
		realdata.Missing(tb, "gensim is not installed for %s (apt-get install python3-gensim): %v %s", Python, err, strings.TrimSpace(string(out)))
	}
}

// Write writes ref's documents and the topics (term ids into ref.Vocab) as
// words into dir: texts.txt and topics.txt.
func Write(dir string, ref coherence.Reference, topics [][]int32) error {
	var b strings.Builder
	for _, doc := range ref.Docs {
		for i, t := range doc {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(ref.Vocab[t])
		}
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "texts.txt"), []byte(b.String()), 0o644); err != nil {
		return err
	}
	b.Reset()
	for _, topic := range topics {
		for i, t := range topic {
			if i > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(ref.Vocab[t])
		}
		b.WriteByte('\n')
	}
	return os.WriteFile(filepath.Join(dir, "topics.txt"), []byte(b.String()), 0o644)
}

// Scores runs gensim on dir (see Write) at its own default windows (10 for
// UCI and NPMI, 110 for C_V) and returns the per-topic scores of each
// measure. The windows are gensim's, never topicmf's defaults passed to it,
// so that a check of topicmf's defaults notices when the two drift apart.
func Scores(dir string, measures []coherence.Measure) (map[coherence.Measure][]float64, error) {
	args := []string{Script(), dir}
	for _, m := range measures {
		args = append(args, string(m))
	}
	cmd := exec.Command(Python, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("gensim: %v: %s", err, stderr.String())
	}
	var raw map[string][]float64
	if err := json.Unmarshal(out, &raw); err != nil {
		return nil, fmt.Errorf("gensim output: %v", err)
	}
	res := map[coherence.Measure][]float64{}
	for k, v := range raw {
		res[coherence.Measure(k)] = v
	}
	return res, nil
}
