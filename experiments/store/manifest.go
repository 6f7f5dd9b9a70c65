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

// Check reports why the run id is not a usable finished run, or nil when it
// is: the done marker exists, names id, carries a manifest, and every file
// of the manifest exists with its recorded size. It reads no file contents
// (Verify does). A run that fails Check is not served from the store.
func (s *Store) Check(id string) error {
	entries, err := readDone(s.Dir(id), id)
	if err != nil {
		return err
	}
	for _, e := range entries {
		fi, err := os.Lstat(filepath.Join(s.Dir(id), filepath.FromSlash(e.Name)))
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
	}
	return nil
}

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
