package datasets

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"strings"
)

// Status is the outcome of checking one file against its registry entry.
type Status int

const (
	// StatusOK: the file exists with the registered size and SHA-256.
	StatusOK Status = iota
	// StatusMissing: no file at the registered path.
	StatusMissing
	// StatusSizeMismatch: the size differs (the digest is not computed).
	StatusSizeMismatch
	// StatusChecksumMismatch: the size agrees but the SHA-256 differs.
	StatusChecksumMismatch
	// StatusUnreadable: the file (or its registry entry) could not be
	// checked; FileStatus.Err says why.
	StatusUnreadable
)

func (s Status) String() string {
	switch s {
	case StatusOK:
		return "ok"
	case StatusMissing:
		return "missing"
	case StatusSizeMismatch:
		return "size mismatch"
	case StatusChecksumMismatch:
		return "checksum mismatch"
	case StatusUnreadable:
		return "unreadable"
	}
	return fmt.Sprintf("Status(%d)", int(s))
}

// FileStatus is the result of verifying one registered file.
type FileStatus struct {
	File   File
	Status Status
	Size   int64  // actual size in bytes (when the file exists)
	SHA256 string // actual hex digest (when computed)
	Err    error  // the cause, for StatusUnreadable
	// Canonical is set when the file is intact in its canonical form
	// rather than as the staged bytes (see CanonicalForm).
	Canonical bool
}

// OK reports whether the file is present and intact.
func (s FileStatus) OK() bool { return s.Status == StatusOK }

// String is a one-line description naming the file and, on failure, what
// was expected and what was found.
func (s FileStatus) String() string {
	p := s.File.Path
	switch s.Status {
	case StatusOK:
		if s.Canonical {
			c, _ := CanonicalFor(s.File)
			return fmt.Sprintf("%s: ok (canonical form, sha256 %s of %s)", p, c.SHA256, canonicalWhat(c))
		}
		return fmt.Sprintf("%s: ok", p)
	case StatusMissing:
		return fmt.Sprintf("%s: missing", p)
	case StatusSizeMismatch:
		return fmt.Sprintf("%s: size mismatch: expected %d bytes, found %d", p, s.File.Size, s.Size)
	case StatusChecksumMismatch:
		return fmt.Sprintf("%s: checksum mismatch: expected sha256 %s, actual %s", p, s.File.SHA256, s.SHA256)
	default:
		return fmt.Sprintf("%s: unreadable: %v", p, s.Err)
	}
}

// LocalPath returns where f lives below dataDir. It rejects registry paths
// that are absolute or climb out of the data directory.
func LocalPath(dataDir string, f File) (string, error) {
	p := f.Path
	if p == "" || strings.Contains(p, `\`) || path.IsAbs(p) || path.Clean(p) != p ||
		p == ".." || strings.HasPrefix(p, "../") {
		return "", fmt.Errorf("registry path %q must be a clean relative path with forward slashes", p)
	}
	return filepath.Join(dataDir, filepath.FromSlash(p)), nil
}

func canonicalWhat(c CanonicalForm) string {
	if c.Gzip {
		return "the decompressed content"
	}
	return "the canonical download"
}

// VerifyFile checks one file below dataDir: existence, size, then the
// SHA-256 of its bytes, read as a stream. A file whose registry entry has a
// CanonicalForm is also intact when it matches that form (Canonical set).
func VerifyFile(dataDir string, f File) FileStatus {
	st := verifyStaged(dataDir, f)
	if st.Status != StatusSizeMismatch && st.Status != StatusChecksumMismatch {
		return st
	}
	c, ok := CanonicalFor(f)
	if !ok {
		return st
	}
	local, _ := LocalPath(dataDir, f)
	if match, err := matchesCanonical(local, c); err != nil {
		st.Status, st.Err = StatusUnreadable, err
	} else if match {
		st.Status, st.Canonical = StatusOK, true
	}
	return st
}

// verifyStaged checks f against its registered size and digest only.
func verifyStaged(dataDir string, f File) FileStatus {
	st := FileStatus{File: f}
	local, err := LocalPath(dataDir, f)
	if err != nil {
		st.Status, st.Err = StatusUnreadable, err
		return st
	}
	fi, err := os.Stat(local)
	switch {
	case os.IsNotExist(err):
		st.Status = StatusMissing
		return st
	case err != nil:
		st.Status, st.Err = StatusUnreadable, err
		return st
	case !fi.Mode().IsRegular():
		st.Status, st.Err = StatusUnreadable, fmt.Errorf("%s is not a regular file", local)
		return st
	}
	st.Size = fi.Size()
	if st.Size != f.Size {
		st.Status = StatusSizeMismatch
		return st
	}
	sum, n, err := hashFile(local)
	if err != nil {
		st.Status, st.Err = StatusUnreadable, err
		return st
	}
	st.SHA256, st.Size = sum, n
	switch {
	case n != f.Size: // changed while we read it
		st.Status = StatusSizeMismatch
	case !strings.EqualFold(sum, f.SHA256):
		st.Status = StatusChecksumMismatch
	default:
		st.Status = StatusOK
	}
	return st
}

// hashFile streams the file through SHA-256.
func hashFile(name string) (sum string, n int64, err error) {
	fh, err := os.Open(name)
	if err != nil {
		return "", 0, err
	}
	defer fh.Close()
	h := sha256.New()
	n, err = io.Copy(h, fh)
	if err != nil {
		return "", n, fmt.Errorf("%s: %w", name, err)
	}
	return hex.EncodeToString(h.Sum(nil)), n, nil
}

// Verify checks every file of src below dataDir, in registry order.
func Verify(dataDir string, src Source) []FileStatus {
	return VerifyFiles(dataDir, src.Files)
}

// VerifyAll checks the files of all srcs, each distinct file once (several
// sources share files), in first-seen order.
func VerifyAll(dataDir string, srcs []Source) []FileStatus {
	return VerifyFiles(dataDir, DistinctFiles(srcs))
}

// VerifyFiles checks each of files below dataDir, in order.
func VerifyFiles(dataDir string, files []File) []FileStatus {
	out := make([]FileStatus, len(files))
	for i, f := range files {
		out[i] = VerifyFile(dataDir, f)
	}
	return out
}

// DistinctFiles lists the files of srcs in first-seen order, each registry
// entry once. Two entries for the same path with different digests or
// sizes are both kept, so that the wrong one fails verification.
func DistinctFiles(srcs []Source) []File {
	type key struct {
		path, sum string
		size      int64
	}
	seen := map[key]bool{}
	var out []File
	for _, s := range srcs {
		for _, f := range s.Files {
			k := key{f.Path, strings.ToLower(f.SHA256), f.Size}
			if !seen[k] {
				seen[k] = true
				out = append(out, f)
			}
		}
	}
	return out
}
