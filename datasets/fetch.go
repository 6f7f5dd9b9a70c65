package datasets

import (
	"archive/tar"
	"archive/zip"
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/topicmf/topicmf/internal/outfile"
)

// Progress is told how many bytes of f have arrived so far; total is the
// expected number of bytes, or -1 when unknown (an archive whose server
// does not announce its length).
type Progress func(f File, received, total int64)

// FetchOptions configure Fetch. The zero value downloads from each file's
// registered URL with http.DefaultClient and reports no progress.
type FetchOptions struct {
	// Client performs the downloads; nil means http.DefaultClient.
	Client *http.Client
	// Mirror, when set, replaces every registered URL: file f is fetched
	// from Mirror + "/" + f.Path. It is an http(s) URL, a file:// URL or a
	// local directory laid out like the data directory (for air-gapped
	// machines and tests).
	Mirror string
	// Progress, when set, is called as bytes arrive.
	Progress Progress
}

// FetchAction says what Fetch did with one file.
type FetchAction int

const (
	// FetchPresent: the file was already there and verified; not downloaded.
	FetchPresent FetchAction = iota
	// FetchDownloaded: the file was downloaded, verified and put in place.
	FetchDownloaded
	// FetchFailed: the file could not be fetched; FetchResult.Err says why.
	FetchFailed
)

func (a FetchAction) String() string {
	switch a {
	case FetchPresent:
		return "present"
	case FetchDownloaded:
		return "downloaded"
	case FetchFailed:
		return "failed"
	}
	return fmt.Sprintf("FetchAction(%d)", int(a))
}

// FetchResult is the outcome for one file.
type FetchResult struct {
	File   File
	Action FetchAction
	From   string // where it was downloaded from ("" when present)
	Err    error  // one line naming the file, for FetchFailed
}

// Fetch makes every file of src present and verified below dataDir. See
// FetchFiles.
func Fetch(ctx context.Context, dataDir string, src Source, opt FetchOptions) ([]FetchResult, error) {
	return FetchFiles(ctx, dataDir, src.Files, opt)
}

// FetchFiles makes each of files present and verified below dataDir,
// creating directories as needed. A file that already verifies is left
// alone. Any other (missing, wrong size or digest) is downloaded into a
// temporary file in its destination directory, its size and SHA-256 are
// checked, and only then is it renamed over the destination; on any failure
// the temporary file is removed, so no partial file is ever left behind.
//
// A failure of one file does not stop the others; the returned error joins
// the per-file errors (one line each, naming the file, the URL and, for a
// digest mismatch, the expected and actual digests). Cancelling ctx stops
// at once with an error wrapping ctx.Err().
func FetchFiles(ctx context.Context, dataDir string, files []File, opt FetchOptions) ([]FetchResult, error) {
	var (
		out  []FetchResult
		errs []error
	)
	for _, f := range files {
		if err := ctx.Err(); err != nil {
			return out, fmt.Errorf("fetch cancelled before %s: %w", f.Path, err)
		}
		r := fetchFile(ctx, dataDir, f, opt)
		out = append(out, r)
		if r.Err != nil {
			if ctx.Err() != nil {
				return out, r.Err
			}
			errs = append(errs, r.Err)
		}
	}
	return out, errors.Join(errs...)
}

func fetchFile(ctx context.Context, dataDir string, f File, opt FetchOptions) FetchResult {
	res := FetchResult{File: f, Action: FetchFailed}
	local, err := LocalPath(dataDir, f)
	if err != nil {
		res.Err = err
		return res
	}
	if st := VerifyFile(dataDir, f); st.OK() {
		res.Action = FetchPresent
		return res
	}
	from, member, err := fetchLocation(f, opt.Mirror)
	if err != nil {
		res.Err = err
		return res
	}
	res.From = from
	if err := download(ctx, local, from, member, f, opt); err != nil {
		res.Err = err
		return res
	}
	res.Action = FetchDownloaded
	return res
}

// fetchLocation returns where to get f and, for an archive, which member.
func fetchLocation(f File, mirror string) (from, member string, err error) {
	if mirror != "" {
		segs := strings.Split(f.Path, "/")
		if isLocalMirror(mirror) {
			dir := strings.TrimPrefix(mirror, "file://")
			return filepath.Join(append([]string{dir}, segs...)...), "", nil
		}
		for i, s := range segs {
			segs[i] = url.PathEscape(s)
		}
		return strings.TrimRight(mirror, "/") + "/" + strings.Join(segs, "/"), "", nil
	}
	if f.URL == "" {
		return "", "", fmt.Errorf("%s: no public download location serves these exact bytes; fetch it from a mirror (--mirror) or copy it into the data directory by hand", f.Path)
	}
	return f.URL, f.Member, nil
}

func isLocalMirror(m string) bool {
	return strings.HasPrefix(m, "file://") || !strings.Contains(m, "://")
}

// download fetches from into a temporary file beside local, checks it
// against f and renames it into place. A local that is a symbolic link is
// followed: the file goes beside the link's final target and replaces it,
// and the link stays. A local that is (or links to) anything but a
// regular file, such as a FIFO, a device or a folder, is refused rather
// than renamed over.
func download(ctx context.Context, local, from, member string, f File, opt FetchOptions) (err error) {
	if local, err = outfile.Resolve(local); err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	if fi, err := os.Stat(local); err == nil && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %s is %s, not a regular file; move it away to fetch the file", f.Path, local, fileKindOrDir(fi.Mode()))
	}
	dir := filepath.Dir(local)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(local)+".part-*")
	if err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()

	body, total, err := openSource(ctx, from, opt.Client)
	if err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	defer body.Close()

	form, hasForm := CanonicalFor(f)
	h := sha256.New()
	var n int64
	if member == "" {
		limit := int64(-1) // a bound lets us notice a longer body without filling the disk
		switch {
		case !hasForm && f.Size > 0:
			limit = f.Size + 1
			if total < 0 || total > f.Size {
				total = f.Size
			}
		case hasForm && f.Size > 0 && form.Size > 0:
			limit = max(f.Size, form.Size) + 1
		}
		n, err = copyBody(ctx, io.MultiWriter(tmp, h), body, limit, func(got int64) {
			if opt.Progress != nil {
				opt.Progress(f, got, total)
			}
		})
		if err != nil {
			return fmt.Errorf("%s: download from %s interrupted after %d bytes: %w", f.Path, from, n, err)
		}
	} else {
		n, err = fetchMember(ctx, dir, tmp, h, body, total, member, from, f, opt.Progress)
		if err != nil {
			return err
		}
	}

	sum := hex.EncodeToString(h.Sum(nil))
	switch {
	case (f.Size <= 0 || n == f.Size) && strings.EqualFold(sum, f.SHA256):
		// the registered bytes
	case hasForm && (form.Size <= 0 || n == form.Size) && strings.EqualFold(sum, form.SHA256):
		if form.Gzip {
			if tmp, err = gzipInto(dir, tmp, f); err != nil {
				return err
			}
		}
	case hasForm:
		return fmt.Errorf("%s: checksum mismatch for download from %s: expected sha256 %s (%s) or %s (%s), actual %s (%d bytes; download discarded)",
			f.Path, from, f.SHA256, sizeText(f.Size), form.SHA256, sizeText(form.Size), sum, n)
	case f.Size > 0 && n != f.Size:
		got := fmt.Sprintf("%d", n)
		if n > f.Size {
			got = "more"
		}
		return fmt.Errorf("%s: size mismatch for download from %s: expected %d bytes, received %s (download discarded)", f.Path, from, f.Size, got)
	default:
		return fmt.Errorf("%s: checksum mismatch for download from %s: expected sha256 %s, actual %s (download discarded)", f.Path, from, f.SHA256, sum)
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	if err = os.Chmod(tmp.Name(), 0o644); err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	if err = os.Rename(tmp.Name(), local); err != nil {
		return fmt.Errorf("%s: %w", f.Path, err)
	}
	return nil
}

func sizeText(n int64) string {
	if n <= 0 {
		return "size unknown"
	}
	return fmt.Sprintf("%d bytes", n)
}

// gzipInto compresses the verified download src into a new temporary file
// beside it (compress/gzip, best compression, no name or time in the
// header, so the result is deterministic), removes src and returns the new
// file.
func gzipInto(dir string, src *os.File, f File) (out *os.File, err error) {
	out, err = os.CreateTemp(dir, "."+filepath.Base(f.Path)+".gz-*")
	if err != nil {
		return src, fmt.Errorf("%s: %w", f.Path, err)
	}
	defer func() {
		if err != nil {
			out.Close()
			os.Remove(out.Name())
			out = src // the caller removes src
		}
	}()
	if _, err = src.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	zw, err := gzip.NewWriterLevel(out, gzip.BestCompression)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", f.Path, err)
	}
	if _, err = io.Copy(zw, src); err != nil {
		return nil, fmt.Errorf("%s: compressing the download: %w", f.Path, err)
	}
	if err = zw.Close(); err != nil {
		return nil, fmt.Errorf("%s: compressing the download: %w", f.Path, err)
	}
	src.Close()
	os.Remove(src.Name())
	return out, nil
}

// openSource opens an http(s) URL or a local file; total is its announced
// length, or -1.
func openSource(ctx context.Context, from string, client *http.Client) (io.ReadCloser, int64, error) {
	if !strings.Contains(from, "://") {
		fh, err := os.Open(from)
		if err != nil {
			return nil, 0, err
		}
		total := int64(-1)
		if fi, err := fh.Stat(); err == nil {
			total = fi.Size()
		}
		return fh, total, nil
	}
	if client == nil {
		client = http.DefaultClient
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, from, nil)
	if err != nil {
		return nil, 0, err
	}
	req.Header.Set("User-Agent", "topicmf")
	resp, err := client.Do(req)
	if err != nil {
		return nil, 0, err // *url.Error names the method and URL
	}
	if resp.StatusCode != http.StatusOK {
		resp.Body.Close()
		return nil, 0, fmt.Errorf("GET %s: %s", from, resp.Status)
	}
	return resp.Body, resp.ContentLength, nil
}

// copyBody copies at most limit bytes (all when limit < 0) from r to w,
// checking ctx between reads and reporting the running count.
func copyBody(ctx context.Context, w io.Writer, r io.Reader, limit int64, progress func(int64)) (int64, error) {
	if limit >= 0 {
		r = io.LimitReader(r, limit)
	}
	buf := make([]byte, 64<<10)
	var n int64
	for {
		if err := ctx.Err(); err != nil {
			return n, err
		}
		k, rerr := r.Read(buf)
		if k > 0 {
			if _, err := w.Write(buf[:k]); err != nil {
				return n, err
			}
			n += int64(k)
			progress(n)
		}
		if rerr == io.EOF {
			return n, nil
		}
		if rerr != nil {
			if cerr := ctx.Err(); cerr != nil {
				return n, cerr
			}
			return n, rerr
		}
	}
}

// fetchMember downloads an archive into a second temporary file, then
// copies the wanted member into tmp while hashing it.
func fetchMember(ctx context.Context, dir string, tmp *os.File, h hash.Hash, body io.Reader, total int64,
	member, from string, f File, progress Progress) (int64, error) {
	arc, err := os.CreateTemp(dir, "."+filepath.Base(tmp.Name())+".archive-*")
	if err != nil {
		return 0, fmt.Errorf("%s: %w", f.Path, err)
	}
	defer func() {
		arc.Close()
		os.Remove(arc.Name())
	}()
	n, err := copyBody(ctx, arc, body, -1, func(got int64) {
		if progress != nil {
			progress(f, got, total)
		}
	})
	if err != nil {
		return 0, fmt.Errorf("%s: download of archive %s interrupted after %d bytes: %w", f.Path, from, n, err)
	}
	if _, err := arc.Seek(0, io.SeekStart); err != nil {
		return 0, fmt.Errorf("%s: %w", f.Path, err)
	}
	w := io.MultiWriter(tmp, h)
	copied, found, err := extractMember(arc, n, member, w)
	if err != nil {
		return 0, fmt.Errorf("%s: archive %s: %w", f.Path, from, err)
	}
	if !found {
		return 0, fmt.Errorf("%s: archive %s has no member %s", f.Path, from, member)
	}
	return copied, nil
}

// memberMatches says whether archive member name is want: equal, or equal
// to its last path elements ("cacm/common_words" matches "common_words").
func memberMatches(name, want string) bool {
	name = strings.TrimPrefix(name, "./")
	return name == want || strings.HasSuffix(name, "/"+want) && path.Clean(name) == name
}

// extractMember copies the first member named want of the archive held in
// f (size bytes; zip, gzip'ed tar or plain tar, told apart by content) to w.
func extractMember(f *os.File, size int64, want string, w io.Writer) (n int64, found bool, err error) {
	br := bufio.NewReader(f)
	magic, _ := br.Peek(4)
	switch {
	case bytes.HasPrefix(magic, []byte("PK\x03\x04")), bytes.HasPrefix(magic, []byte("PK\x05\x06")):
		zr, err := zip.NewReader(f, size)
		if err != nil {
			return 0, false, fmt.Errorf("not a readable zip archive: %w", err)
		}
		for _, zf := range zr.File {
			if !memberMatches(zf.Name, want) || strings.HasSuffix(zf.Name, "/") {
				continue
			}
			rc, err := zf.Open()
			if err != nil {
				return 0, true, fmt.Errorf("member %s: %w", zf.Name, err)
			}
			n, err = io.Copy(w, rc)
			rc.Close()
			if err != nil {
				return n, true, fmt.Errorf("member %s: %w", zf.Name, err)
			}
			return n, true, nil
		}
		return 0, false, nil
	case bytes.HasPrefix(magic, []byte{0x1f, 0x8b}):
		gz, err := gzip.NewReader(br)
		if err != nil {
			return 0, false, fmt.Errorf("not a gzip archive: %w", err)
		}
		defer gz.Close()
		return tarMember(gz, want, w)
	default:
		return tarMember(br, want, w)
	}
}

func tarMember(r io.Reader, want string, w io.Writer) (int64, bool, error) {
	tr := tar.NewReader(r)
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return 0, false, nil
		}
		if err != nil {
			return 0, false, fmt.Errorf("corrupt or truncated tar archive: %w", err)
		}
		if h.Typeflag != tar.TypeReg || !memberMatches(h.Name, want) {
			continue
		}
		n, err := io.Copy(w, tr)
		if err != nil {
			return n, true, fmt.Errorf("member %s: %w", h.Name, err)
		}
		return n, true, nil
	}
}
