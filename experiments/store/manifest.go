package store

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// Entry is one file of a run's manifest.
type Entry struct {
	Name   string // slash-separated path inside the run directory
	Size   int64
	SHA256 string // hex
}

// manifestHeader is the second line of the done marker, after the run id.
const manifestHeader = "manifest v1: sha256 size name"

// buildManifest lists every regular file below dir (except the done marker)
// with its size and SHA-256, sorted by name.
func buildManifest(dir string) ([]Entry, error) {
	var out []Entry
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if name == DoneFile {
			return nil
		}
		if !d.Type().IsRegular() {
			return fmt.Errorf("run file %s: not a regular file", name)
		}
		size, sum, err := hashFile(p)
		if err != nil {
			return err
		}
		out = append(out, Entry{Name: name, Size: size, SHA256: sum})
		return nil
	})
	sort.Slice(out, func(a, b int) bool { return out[a].Name < out[b].Name })
	return out, err
}

func hashFile(path string) (int64, string, error) {
	f, err := os.Open(path)
	if err != nil {
		return 0, "", err
	}
	defer f.Close()
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return 0, "", fmt.Errorf("reading %s: %w", path, err)
	}
	return n, hex.EncodeToString(h.Sum(nil)), nil
}

// encodeDone is the done marker: the run id, then the manifest, one
// "sha256 size name" line per file.
func encodeDone(id string, entries []Entry) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s\n%s\n", id, manifestHeader)
	for _, e := range entries {
		fmt.Fprintf(&b, "%s %d %s\n", e.SHA256, e.Size, e.Name)
	}
	return b.Bytes()
}

// errNoManifest marks a done marker written before manifests existed.
var errNoManifest = errors.New("done marker has no manifest (written by an older topicmf)")

// readDone parses the done marker of the run directory dir.
func readDone(dir, id string) ([]Entry, error) {
	f, err := os.Open(filepath.Join(dir, DoneFile))
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, errors.New("not finished (no done marker)")
		}
		return nil, err
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 4096), 1<<20)
	line := 0
	var out []Entry
	for sc.Scan() {
		line++
		text := sc.Text()
		switch line {
		case 1:
			if text != id {
				return nil, fmt.Errorf("%s: line 1: run id %.70q, want %s", DoneFile, text, id)
			}
			continue
		case 2:
			if text != manifestHeader {
				return nil, fmt.Errorf("%s: line 2: %.70q, want %q", DoneFile, text, manifestHeader)
			}
			continue
		}
		sum, rest, ok1 := strings.Cut(text, " ")
		size, name, ok2 := strings.Cut(rest, " ")
		n, err := strconv.ParseInt(size, 10, 64)
		if !ok1 || !ok2 || err != nil || n < 0 || len(sum) != 64 || name == "" {
			return nil, fmt.Errorf("%s: line %d: want \"sha256 size name\", got %.70q", DoneFile, line, text)
		}
		out = append(out, Entry{Name: name, Size: n, SHA256: sum})
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("%s: line %d: %w", DoneFile, line+1, err)
	}
	if line < 2 {
		return nil, errNoManifest
	}
	return out, nil
}

// FactorHashThreshold is the size above which a factor file (a Matrix
// Market file, name ending in ".mtx") is not hashed by the quick check
// (Check, Do, Finished, List): it is checked by size there and hashed in
// full whenever it is read through OpenRunFile, and by CheckAll and Verify.
// Every other file of the manifest (config, provenance, metrics, tables,
// status, iteration traces, CSVs, top terms — whatever its size) and every
// factor file up to this size is hashed every time the run is served. At
// 1 MiB a served run reads at most a few MiB for the quick check, however
// large its factors (a 20 Newsgroups U with K = 100 is about 100 MB).
const FactorHashThreshold = 1 << 20

// deferredHash reports whether the quick check leaves e's content to the
// reader (see FactorHashThreshold).
func deferredHash(e Entry) bool {
	return strings.HasSuffix(e.Name, ".mtx") && e.Size > FactorHashThreshold
}

// Check reports why the run id is not a usable finished run, or nil when it
// is: the done marker exists, names id, carries a manifest, every file of
// the manifest exists with its recorded size, and every file but the large
// factor files (see FactorHashThreshold) has its recorded SHA-256. A run
// that fails Check is not served from the store. The error is one line
// naming the first file that differs.
func (s *Store) Check(id string) error { return CheckRun(s.Dir(id), id, false) }

// CheckAll is Check hashing every file, the large factor files included.
func (s *Store) CheckAll(id string) error { return CheckRun(s.Dir(id), id, true) }

// CheckRun is Check (all false) or CheckAll (all true) of the finished run
// id in dir, without opening its store (it reads only).
func CheckRun(dir, id string, all bool) error {
	entries, err := readDone(dir, id)
	if err != nil {
		return err
	}
	for _, e := range entries {
		p := filepath.Join(dir, filepath.FromSlash(e.Name))
		fi, err := os.Lstat(p)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return fmt.Errorf("%s: missing", e.Name)
		case err != nil:
			return err
		case !fi.Mode().IsRegular():
			return fmt.Errorf("%s: not a regular file", e.Name)
		case fi.Size() != e.Size:
			return fmt.Errorf("%s: %d bytes, manifest says %d", e.Name, fi.Size(), e.Size)
		}
		if !all && deferredHash(e) {
			continue
		}
		if err := checkHash(p, e); err != nil {
			return err
		}
	}
	return nil
}

// checkHash re-hashes the file at p, the manifest's entry e.
func checkHash(p string, e Entry) error {
	size, sum, err := hashFile(p)
	if err != nil {
		return fmt.Errorf("%s: %w", e.Name, err)
	}
	return e.compare(size, sum)
}

// compare names how a file of the given size and SHA-256 differs from e.
func (e Entry) compare(size int64, sum string) error {
	switch {
	case size != e.Size:
		return fmt.Errorf("%s: %d bytes, manifest says %d", e.Name, size, e.Size)
	case sum != e.SHA256:
		return fmt.Errorf("%s: content changed (sha256 %.12s…, manifest says %.12s…)", e.Name, sum, e.SHA256)
	}
	return nil
}

// OpenRunFile opens the file name (slash-separated, as in the manifest) of
// the finished run id in dir for reading, after hashing it in full against
// the run's manifest: a reader of a run's factors (a saved model, transform,
// rank) gets either the bytes the run wrote or a one-line error naming the
// file. The returned file is positioned at its start.
func OpenRunFile(dir, id, name string) (*os.File, error) {
	entries, err := readDone(dir, id)
	if err != nil {
		return nil, fmt.Errorf("run %s: %w", dir, err)
	}
	i := slices.IndexFunc(entries, func(e Entry) bool { return e.Name == name })
	if i < 0 {
		return nil, fmt.Errorf("run %s: %s is not in its manifest", dir, name)
	}
	f, err := os.Open(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		return nil, err
	}
	h := sha256.New()
	n, err := io.Copy(h, f)
	if err != nil {
		err = fmt.Errorf("%s: %w", name, err)
	} else {
		err = entries[i].compare(n, hex.EncodeToString(h.Sum(nil)))
	}
	if err == nil {
		_, err = f.Seek(0, io.SeekStart)
	}
	if err != nil {
		f.Close()
		return nil, &DamagedError{Dir: dir, Err: err}
	}
	return f, nil
}

// DamagedError is OpenRunFile's error for a file that cannot be read to
// the end or does not hash to its manifest entry; Err names the file.
type DamagedError struct {
	Dir string
	Err error
}

func (e *DamagedError) Error() string { return fmt.Sprintf("run %s is damaged: %v", e.Dir, e.Err) }
func (e *DamagedError) Unwrap() error { return e.Err }

// OpenFile is OpenRunFile of the finished run id of s.
func (s *Store) OpenFile(id, name string) (*os.File, error) { return OpenRunFile(s.Dir(id), id, name) }

// Verify re-reads every file of the finished run id and returns one line per
// difference from its manifest (missing, size or SHA-256 mismatch, a file
// not in the manifest); none means the run is intact. The error is for a run
// that is not finished or whose done marker cannot be read.
func (s *Store) Verify(id string) ([]string, error) { return VerifyRun(s.Dir(id), id) }

// VerifyRun is Verify of the finished run id in dir, without opening its
// store (it reads only).
func VerifyRun(dir, id string) ([]string, error) {
	want, err := readDone(dir, id)
	if err != nil {
		return nil, err
	}
	got, err := buildManifest(dir)
	if err != nil {
		return nil, err
	}
	have := map[string]Entry{}
	for _, e := range got {
		have[e.Name] = e
	}
	var bad []string
	for _, w := range want {
		g, ok := have[w.Name]
		delete(have, w.Name)
		switch {
		case !ok:
			bad = append(bad, w.Name+": missing")
		case g.Size != w.Size:
			bad = append(bad, fmt.Sprintf("%s: %d bytes, manifest says %d", w.Name, g.Size, w.Size))
		case g.SHA256 != w.SHA256:
			bad = append(bad, fmt.Sprintf("%s: sha256 %s, manifest says %s", w.Name, g.SHA256, w.SHA256))
		}
	}
	var extra []string
	for name := range have {
		extra = append(extra, name+": not in the manifest")
	}
	sort.Strings(extra)
	return append(bad, extra...), nil
}
