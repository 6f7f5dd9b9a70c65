package workflow

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/experiments/store"
)

// readHashed opens path, calls read on its bytes and returns their SHA-256,
// reading the file once: a pipe (--mtx /dev/stdin) works like a file. What
// read leaves unread is hashed too, so that the digest is the file's. For
// a regular file the reader has a Len method (the bytes left), by which
// the Matrix Market reader bounds what a size line may declare.
func readHashed(path string, read func(io.Reader) error) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	var r io.Reader = io.TeeReader(f, h)
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() {
		r = &sizedReader{r: r, left: fi.Size()}
	}
	if err := read(r); err != nil {
		return "", err
	}
	if _, err := io.Copy(io.Discard, r); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// sizedReader is a reader of a known number of bytes, which Len tells.
type sizedReader struct {
	r    io.Reader
	left int64
}

func (s *sizedReader) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	s.left -= int64(n)
	return n, err
}

// Len is the number of bytes left.
func (s *sizedReader) Len() int { return int(max(s.left, 0)) }

// loadMTX reads a term-document Matrix Market file (documents × terms
// with transpose), its optional vocabulary and its optional class labels
// (one per line, in document order), each file once; it returns the
// corpus and the files' checksums (named matrix, vocab, labels).
func loadMTX(path, vocabPath, labelsPath string, transpose bool) (*engine.Corpus, []store.Checksum, error) {
	var d *sparse.CSR
	sum, err := readHashed(path, func(r io.Reader) (err error) {
		if d, err = (sparse.MMOptions{NonNegative: true}).ReadMM(r); err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		return nil
	})
	if err != nil {
		return nil, nil, err
	}
	sums := []store.Checksum{{Name: "matrix", SHA256: sum}}
	if transpose {
		d = d.T()
	}
	var vocab []string
	if vocabPath != "" {
		var sum string
		if vocab, sum, err = readHashedLines(vocabPath, "term"); err != nil {
			return nil, nil, err
		}
		sums = append(sums, store.Checksum{Name: "vocab", SHA256: sum})
		if err := checkUniqueTerms(vocabPath, vocab); err != nil {
			return nil, nil, err
		}
		if len(vocab) != d.Rows {
			what := "rows"
			if transpose {
				what = "columns"
			}
			return nil, nil, fmt.Errorf("%s: %d terms, but %s has %d term %s", vocabPath, len(vocab), path, d.Rows, what)
		}
	} else {
		vocab = make([]string, d.Rows)
		for i := range vocab {
			vocab[i] = "t" + strconv.Itoa(i)
		}
	}
	var labels []int
	var classes []string
	if labelsPath != "" {
		names, sum, err := readHashedLines(labelsPath, "label")
		if err != nil {
			return nil, nil, err
		}
		sums = append(sums, store.Checksum{Name: "labels", SHA256: sum})
		if len(names) != d.Cols {
			return nil, nil, fmt.Errorf("%s: %d labels, but %s has %d documents", labelsPath, len(names), path, d.Cols)
		}
		index := map[string]int{}
		for _, n := range names {
			index[n] = 0
		}
		for n := range index {
			classes = append(classes, n)
		}
		slices.Sort(classes)
		for k, n := range classes {
			index[n] = k
		}
		labels = make([]int, len(names))
		for j, n := range names {
			labels[j] = index[n]
		}
	}
	c, err := engine.NewCorpus(filepath.Base(path), vocab, d, nil, labels, classes)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	return c, sums, nil
}

// ReadLines reads one non-empty entry (a term, a label) per line.
func ReadLines(path, what string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLinesFrom(f, path, what)
}

// readHashedLines reads the non-empty lines of path (a term or label per
// line, what names it in errors) and the file's SHA-256, in one pass.
func readHashedLines(path, what string) (lines []string, sum string, err error) {
	sum, err = readHashed(path, func(r io.Reader) (err error) {
		lines, err = readLinesFrom(r, path, what)
		return err
	})
	return lines, sum, err
}

// readLinesFrom reads one non-empty entry per line from r, the contents of
// path (named in errors).
func readLinesFrom(r io.Reader, path, what string) ([]string, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<16), 1<<20)
	var out []string
	line := 0
	for sc.Scan() {
		line++
		t := strings.TrimSpace(sc.Text())
		if t == "" {
			return nil, fmt.Errorf("%s: line %d: empty %s", path, line, what)
		}
		out = append(out, t)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%s: line %d is longer than 1 MiB; want one %s per line", path, line+1, what)
	} else if err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", path, line+1, err)
	}
	return out, nil
}
