package store

import (
	"bufio"
	"context"
	"crypto/sha256"
	"encoding/csv"
	"encoding/hex"
	"encoding/json"
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
	"time"
)

// Names of the files the store itself writes in every run directory.
const (
	ConfigFile     = "config.json"
	ProvenanceFile = "provenance.json"
	// DoneFile, written last, marks a finished run and holds its manifest.
	DoneFile = "done"
	// FailedFile marks a run whose task ended in a Failure; it holds the
	// failure's message. A failed run is never finished.
	FailedFile = "failed"
)

const (
	runsDir   = "runs"
	locksDir  = ".locks"
	tmpPrefix = ".tmp-"
)

// Checksum is the SHA-256 (hex) of one data set's bytes, under a name.
type Checksum struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
}

func sortedChecksums(cs []Checksum) []Checksum {
	out := append([]Checksum(nil), cs...)
	sort.Slice(out, func(a, b int) bool {
		if out[a].Name != out[b].Name {
			return out[a].Name < out[b].Name
		}
		return out[a].SHA256 < out[b].SHA256
	})
	return out
}

// Key is everything that identifies a run.
type Key struct {
	// Config is the run's configuration; it is stored canonically
	// (see Canonical) and must determine the result together with the
	// data and the code.
	Config any
	// Datasets are the checksums of the data the run reads.
	Datasets []Checksum
	// Code is the code version (see DetectCode, CodeVersion.WithExperiment).
	Code CodeVersion
	// Seed is the run's random seed; recorded in provenance.json.
	Seed uint64
}

// ID is the run id: the hex SHA-256 of the canonical configuration, the
// checksums sorted by name, the code version and the seed.
func (k Key) ID() (string, error) {
	cfg, err := Canonical(k.Config)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "topicmf run v1\nconfig %s\n", cfg)
	for _, c := range sortedChecksums(k.Datasets) {
		fmt.Fprintf(h, "dataset %q %s\n", c.Name, c.SHA256)
	}
	fmt.Fprintf(h, "code %s\nseed %d\n", k.Code.Key(), k.Seed)
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Store is a results root holding one directory per run.
type Store struct {
	root string
	runs string
}

// Open opens (creating if needed) the results root and removes stale
// temporary run directories left by killed processes (those whose lock no
// process holds).
func Open(root string) (*Store, error) {
	if root == "" {
		return nil, errors.New("results store: empty root directory")
	}
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, err
	}
	s := &Store{root: abs, runs: filepath.Join(abs, runsDir)}
	if err := os.MkdirAll(filepath.Join(s.runs, locksDir), 0o755); err != nil {
		return nil, fmt.Errorf("results store %s: %w", root, err)
	}
	if err := s.cleanStale(""); err != nil {
		return nil, err
	}
	return s, nil
}

// Root is the results root (absolute).
func (s *Store) Root() string { return s.root }

// Code is the code version of this process, with the store's root excluded
// from the dirty test.
func (s *Store) Code() CodeVersion { return DetectCode(s.root) }

// Dir is where the run with the given id lives once finished.
func (s *Store) Dir(id string) string { return filepath.Join(s.runs, id) }

// Finished reports whether the run id is complete and intact as far as the
// quick check tells (see Check: every file but the large factor files is
// hashed).
func (s *Store) Finished(id string) bool { return s.Check(id) == nil }

// Runs lists the ids of the finished runs, sorted.
func (s *Store) Runs() ([]string, error) {
	ids, err := s.runIDs()
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(ids, func(id string) bool { return !s.Finished(id) }), nil
}

// runIDs lists the ids of the run directories, finished or not, sorted.
func (s *Store) runIDs() ([]string, error) {
	ents, err := os.ReadDir(s.runs)
	if err != nil {
		return nil, err
	}
	var ids []string
	for _, e := range ents {
		if e.IsDir() && IsRunID(e.Name()) {
			ids = append(ids, e.Name())
		}
	}
	return ids, nil
}

// IsRunID reports whether s is a run id: 64 lower-case hex digits.
func IsRunID(s string) bool {
	if len(s) != 64 {
		return false
	}
	_, err := hex.DecodeString(s)
	return err == nil && strings.ToLower(s) == s
}

// RunOf reports whether dir is a finished run of a store, <root>/runs/<id>
// with its done marker, and returns its id and root. It reads nothing else
// and writes nothing.
func RunOf(dir string) (id, root string, ok bool) {
	runs, id := filepath.Split(filepath.Clean(dir))
	runs = filepath.Clean(runs)
	if filepath.Base(runs) != runsDir || !IsRunID(id) {
		return "", "", false
	}
	if fi, err := os.Stat(filepath.Join(dir, DoneFile)); err != nil || !fi.Mode().IsRegular() {
		return "", "", false
	}
	return id, filepath.Dir(runs), true
}

func (s *Store) lockPath(id string) string {
	return filepath.Join(s.runs, locksDir, id+".lock")
}

// cleanStale removes temporary run directories (of id, or of every id when
// id is "") whose lock no one holds.
func (s *Store) cleanStale(id string) error {
	ents, err := os.ReadDir(s.runs)
	if err != nil {
		return err
	}
	for _, e := range ents {
		name := e.Name()
		if !strings.HasPrefix(name, tmpPrefix) {
			continue
		}
		rest := strings.TrimPrefix(name, tmpPrefix)
		tid, _, _ := strings.Cut(rest, "-")
		if !IsRunID(tid) || (id != "" && tid != id) {
			continue
		}
		if id != "" {
			// The caller holds the lock of id: every temp dir of id is stale.
			if err := os.RemoveAll(filepath.Join(s.runs, name)); err != nil {
				return fmt.Errorf("removing stale run %s: %w", name, err)
			}
			continue
		}
		l, ok, err := tryLock(s.lockPath(tid))
		if err != nil {
			return err
		}
		if !ok {
			continue // being written right now
		}
		err = os.RemoveAll(filepath.Join(s.runs, name))
		l.unlock()
		if err != nil {
			return fmt.Errorf("removing stale run %s: %w", name, err)
		}
	}
	return nil
}

// Run is a finished run, or a failed one (Do's error is then a *Failure).
type Run struct {
	ID     string
	Dir    string
	Cached bool // true when the run was finished before this call
	// Replaced says why a run directory already at Dir was not served and
	// was computed again (e.g. "U.mtx: missing"); empty when there was none.
	Replaced string
	// Failed is set when the task returned a Failure, which is recorded at
	// Dir (FailedFile) but not finished.
	Failed bool
}

// Failure is a task's error for a computation that ended in a failure worth
// keeping for inspection, such as a fit's numerical failure: unlike any
// other error, the files written so far stay in the run directory, marked
// by FailedFile (not DoneFile), so the run is never served as finished and
// the next Do for its key computes it again.
type Failure struct{ Err error }

func (f *Failure) Error() string { return f.Err.Error() }
func (f *Failure) Unwrap() error { return f.Err }

// Fail wraps err as a Failure.
func Fail(err error) error { return &Failure{Err: err} }

// Do returns the finished run for key, computing it with task first when
// there is none. task writes the run's files through w into a temporary
// directory; the run becomes visible (renamed into place, done marker last)
// only when task returns nil and ctx is not done. On error or cancellation
// nothing is left behind and the error is returned (ctx.Err() when the
// context ended).
//
// Concurrent calls for the same key, from goroutines or processes sharing
// the root, are serialised by a lock file: the first computes, the others
// wait and then return its run with Cached set.
func (s *Store) Do(ctx context.Context, key Key, task func(ctx context.Context, w *Writer) error) (Run, error) {
	return s.do(ctx, key, false, task)
}

// DoVerified is Do serving a finished run only when every file, the large
// factor files included, hashes to its manifest (CheckAll): for a caller
// whose product is the factors themselves (topicmf fit).
func (s *Store) DoVerified(ctx context.Context, key Key, task func(ctx context.Context, w *Writer) error) (Run, error) {
	return s.do(ctx, key, true, task)
}

func (s *Store) do(ctx context.Context, key Key, all bool, task func(ctx context.Context, w *Writer) error) (Run, error) {
	id, err := key.ID()
	if err != nil {
		return Run{}, err
	}
	run := Run{ID: id, Dir: s.Dir(id)}
	check := s.Check
	if all {
		check = s.CheckAll
	}
	if check(id) == nil {
		run.Cached = true
		return run, nil
	}
	if err := os.MkdirAll(filepath.Join(s.runs, locksDir), 0o755); err != nil {
		return Run{}, err
	}
	l, err := lock(ctx, s.lockPath(id))
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return Run{}, fmt.Errorf("results store %s is not writable: %w", s.root, pe.Err)
		}
		return Run{}, err
	}
	defer l.unlock()
	err = check(id)
	if err == nil {
		run.Cached = true
		return run, nil
	}
	if _, statErr := os.Stat(run.Dir); statErr == nil {
		run.Replaced = err.Error()
		if failed, ok := s.FailedMessage(id); ok {
			run.Replaced = "failed before: " + failed
		}
	}
	if err := s.cleanStale(id); err != nil {
		return Run{}, err
	}
	if err := s.write(ctx, id, key, run.Replaced, task); err != nil {
		var f *Failure
		if errors.As(err, &f) {
			run.Failed = true
			return run, err
		}
		return Run{}, err
	}
	return run, nil
}

// FailedMessage returns the message of the failed run id (see Failure).
func (s *Store) FailedMessage(id string) (string, bool) {
	b, err := os.ReadFile(filepath.Join(s.Dir(id), FailedFile))
	if err != nil {
		return "", false
	}
	return strings.TrimSpace(string(b)), true
}

func (s *Store) write(ctx context.Context, id string, key Key, replaced string, task func(ctx context.Context, w *Writer) error) (err error) {
	tmp, err := os.MkdirTemp(s.runs, tmpPrefix+id+"-")
	if err != nil {
		return err
	}
	// MkdirTemp makes 0700; a run directory is as readable as its files.
	if err := os.Chmod(tmp, 0o755); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	done := false
	defer func() {
		if !done {
			os.RemoveAll(tmp)
		}
	}()
	cfg, err := CanonicalIndent(key.Config)
	if err != nil {
		return err
	}
	w := &Writer{dir: tmp, replaced: replaced}
	if err := WriteBytesAtomic(filepath.Join(tmp, ConfigFile), cfg); err != nil {
		return err
	}
	prov := newProvenance(id, key)
	start := time.Now()
	prov.Start = start.UTC().Format(time.RFC3339Nano)
	var failure *Failure
	err = func() error {
		cpu := processCPU.start()
		defer func() { prov.CPUSeconds = processCPU.stop(cpu) }() // also when task panics
		return task(ctx, w)
	}()
	if err != nil {
		if ctx.Err() != nil && !errors.Is(err, ctx.Err()) {
			return fmt.Errorf("%w (%v)", ctx.Err(), err)
		}
		if !errors.As(err, &failure) {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		// A task that ignored the cancellation may hold a truncated result.
		return err
	}
	end := time.Now()
	prov.End = end.UTC().Format(time.RFC3339Nano)
	prov.Seconds = end.Sub(start).Seconds()
	pj, err := json.MarshalIndent(prov, "", "  ")
	if err != nil {
		return err
	}
	if err := WriteBytesAtomic(filepath.Join(tmp, ProvenanceFile), append(pj, '\n')); err != nil {
		return err
	}
	if failure != nil {
		msg := strings.ReplaceAll(failure.Error(), "\n", " ") + "\n"
		if err := WriteBytesAtomic(filepath.Join(tmp, FailedFile), []byte(msg)); err != nil {
			return err
		}
	} else {
		entries, err := buildManifest(tmp)
		if err != nil {
			return err
		}
		if err := WriteBytesAtomic(filepath.Join(tmp, DoneFile), encodeDone(id, entries)); err != nil {
			return err
		}
	}
	final := s.Dir(id)
	if _, err := os.Stat(final); err == nil {
		// A failed or damaged run, or a directory not written by this
		// package, in the final place: move it aside first.
		aside := filepath.Join(s.runs, tmpPrefix+id+"-replaced")
		os.RemoveAll(aside)
		if err := os.Rename(final, aside); err != nil {
			return err
		}
		os.RemoveAll(aside)
	}
	if err := os.Rename(tmp, final); err != nil {
		return err
	}
	done = true
	if err := syncDir(s.runs); err != nil {
		return err
	}
	if failure != nil {
		return failure
	}
	return nil
}

// Writer writes the files of a run being computed.
type Writer struct {
	dir      string
	replaced string
}

// Dir is the temporary directory of the run (valid only during the task).
func (w *Writer) Dir() string { return w.dir }

// Replaced says why a run directory already at the run's place was not
// served and is being computed again (Run.Replaced, known to the task
// before it computes); empty when there was none.
func (w *Writer) Replaced() string { return w.replaced }

func (w *Writer) path(name string) (string, error) {
	clean := filepath.Clean(filepath.FromSlash(name))
	if name == "" || filepath.IsAbs(clean) || clean == "." || clean == ".." || strings.HasPrefix(clean, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("run file %q: want a relative path inside the run directory", name)
	}
	if strings.ContainsAny(name, "\n\r") {
		return "", fmt.Errorf("run file %q: a name may not contain a line break", name)
	}
	switch clean {
	case ConfigFile, ProvenanceFile, DoneFile, FailedFile:
		return "", fmt.Errorf("run file %q: reserved for the store", name)
	}
	return filepath.Join(w.dir, clean), nil
}

// WriteFile writes the named file (a relative path; directories are
// created) atomically with the bytes write produces.
func (w *Writer) WriteFile(name string, write func(io.Writer) error) error {
	p, err := w.path(name)
	if err != nil {
		return err
	}
	return WriteFileAtomic(p, write)
}

// Create opens the named file for writing as a stream, for output too
// long to hold in memory (an iteration trace). The file appears under its
// name only when Commit succeeds; Abort (or a failed task) discards it.
func (w *Writer) Create(name string) (*StreamFile, error) {
	p, err := w.path(name)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(filepath.Dir(p), tmpPrefix+filepath.Base(p)+"-*")
	if err != nil {
		return nil, err
	}
	return &StreamFile{Writer: bufio.NewWriterSize(f, 1<<16), f: f, path: p}, nil
}

// StreamFile is a run file being written by Writer.Create. Write through
// its buffered Writer.
type StreamFile struct {
	*bufio.Writer
	f    *os.File
	path string
}

// Commit flushes, syncs and renames the file into place.
func (s *StreamFile) Commit() error {
	if err := s.Flush(); err != nil {
		s.Abort()
		return fmt.Errorf("writing %s: %w", s.path, err)
	}
	if err := s.f.Chmod(0o644); err != nil {
		s.Abort()
		return err
	}
	if err := s.f.Sync(); err != nil {
		s.Abort()
		return fmt.Errorf("syncing %s: %w", s.path, err)
	}
	if err := s.f.Close(); err != nil {
		os.Remove(s.f.Name())
		return fmt.Errorf("closing %s: %w", s.path, err)
	}
	return os.Rename(s.f.Name(), s.path)
}

// Abort discards the file.
func (s *StreamFile) Abort() {
	s.f.Close()
	os.Remove(s.f.Name())
}

// WriteBytes writes the named file with data.
func (w *Writer) WriteBytes(name string, data []byte) error {
	p, err := w.path(name)
	if err != nil {
		return err
	}
	return WriteBytesAtomic(p, data)
}

// WriteCSV writes a CSV file with a header row.
func (w *Writer) WriteCSV(name string, header []string, rows [][]string) error {
	return w.WriteFile(name, func(out io.Writer) error {
		cw := csv.NewWriter(out)
		if err := cw.Write(header); err != nil {
			return err
		}
		for i, r := range rows {
			if len(r) != len(header) {
				return fmt.Errorf("row %d has %d fields, header has %d", i+1, len(r), len(header))
			}
			if err := cw.Write(r); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	})
}

// ReadProvenance reads provenance.json of a run directory.
func ReadProvenance(dir string) (Provenance, error) {
	var p Provenance
	b, err := os.ReadFile(filepath.Join(dir, ProvenanceFile))
	if err != nil {
		return p, err
	}
	if err := json.Unmarshal(b, &p); err != nil {
		return p, fmt.Errorf("%s: %w", filepath.Join(dir, ProvenanceFile), err)
	}
	return p, nil
}

// ReadCSV reads a CSV file with a header row; the error names the file and
// record on malformed input.
func ReadCSV(path string) (header []string, rows [][]string, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	cr := csv.NewReader(f)
	all, err := cr.ReadAll()
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(all) == 0 {
		return nil, nil, fmt.Errorf("%s: empty file, want a header row", path)
	}
	return all[0], all[1:], nil
}

// FormatFloat writes a float in full precision, as every stored number is.
func FormatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }

// States of a run directory (Info.State).
const (
	StateFinished   = "finished"   // done marker and manifest agree with the files
	StateFailed     = "failed"     // the task ended in a Failure
	StateDamaged    = "damaged"    // done, but its files do not match the manifest
	StateUnfinished = "unfinished" // neither done nor failed
)

// Info describes one run directory.
type Info struct {
	ID     string
	Dir    string
	State  string
	Detail string          // the failure message or what is damaged
	Config json.RawMessage // config.json, nil when unreadable
	Start  string          // provenance start time (RFC 3339), "" when absent
}

// List describes every run directory of the store, sorted by id, with the
// state the quick check (Check) finds.
func (s *Store) List() ([]Info, error) { return s.list(false) }

// ListVerified is List with every file hashed (CheckAll), so that a
// changed byte in a large factor file shows the run as damaged too.
func (s *Store) ListVerified() ([]Info, error) { return s.list(true) }

func (s *Store) list(all bool) ([]Info, error) {
	ids, err := s.runIDs()
	if err != nil {
		return nil, err
	}
	var out []Info
	for _, id := range ids {
		in := Info{ID: id, Dir: s.Dir(id), State: StateFinished}
		if msg, ok := s.FailedMessage(id); ok {
			in.State, in.Detail = StateFailed, msg
		} else if err := CheckRun(in.Dir, id, all); err != nil {
			in.State, in.Detail = StateDamaged, err.Error()
			if _, statErr := os.Stat(filepath.Join(in.Dir, DoneFile)); statErr != nil {
				in.State = StateUnfinished
			}
		}
		if b, err := os.ReadFile(filepath.Join(in.Dir, ConfigFile)); err == nil && json.Valid(b) {
			in.Config = b
		}
		if p, err := ReadProvenance(in.Dir); err == nil {
			in.Start = p.Start
		}
		out = append(out, in)
	}
	return out, nil
}
