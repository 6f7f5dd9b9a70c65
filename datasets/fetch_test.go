package datasets

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
)

// payload is deterministic test content of n bytes.
func payload(n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(i*7 + i/251)
	}
	return b
}

// entries lists every name below dir (relative), to catch leftovers.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		if !fi.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func wantNoFiles(t *testing.T, dir string) {
	t.Helper()
	if e := entries(t, dir); len(e) != 0 {
		t.Errorf("files left behind: %v", e)
	}
}

// serve returns a server that answers GET path with body (counting hits).
func serve(t *testing.T, routes map[string][]byte, hits *atomic.Int64) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hits != nil {
			hits.Add(1)
		}
		b, ok := routes[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Length", fmt.Sprint(len(b)))
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestFetchSuccess(t *testing.T) {
	content := payload(200_000)
	var hits atomic.Int64
	srv := serve(t, map[string][]byte{"/dl/data.bin": content}, &hits)
	f := fileFor("set/sub/data.bin", content)
	f.URL = srv.URL + "/dl/data.bin"
	dir := t.TempDir()

	var last, calls int64
	res, err := Fetch(context.Background(), dir, Source{Name: "set", Files: []File{f}}, FetchOptions{
		Client: srv.Client(),
		Progress: func(pf File, got, total int64) {
			calls++
			if pf.Path != f.Path || total != f.Size || got < last || got > total {
				t.Errorf("progress(%s, %d, %d) after %d", pf.Path, got, total, last)
			}
			last = got
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(res) != 1 || res[0].Action != FetchDownloaded || res[0].From != f.URL {
		t.Fatalf("results = %+v", res)
	}
	if calls == 0 || last != f.Size {
		t.Errorf("progress: %d calls, last %d; want last %d", calls, last, f.Size)
	}
	got, err := os.ReadFile(filepath.Join(dir, "set", "sub", "data.bin"))
	if err != nil || !bytes.Equal(got, content) {
		t.Fatalf("downloaded file differs (err %v)", err)
	}
	if e := entries(t, dir); len(e) != 1 {
		t.Errorf("files below data dir: %v, want only the download", e)
	}
	fi, _ := os.Stat(filepath.Join(dir, "set", "sub", "data.bin"))
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}

	// Already present and verified: no second request.
	before := hits.Load()
	res, err = Fetch(context.Background(), dir, Source{Files: []File{f}}, FetchOptions{Client: srv.Client()})
	if err != nil || len(res) != 1 || res[0].Action != FetchPresent {
		t.Fatalf("second fetch: %+v, %v", res, err)
	}
	if hits.Load() != before {
		t.Errorf("present file was requested again (%d requests)", hits.Load()-before)
	}
}

func TestFetchReplacesBadFile(t *testing.T) {
	content := payload(5000)
	srv := serve(t, map[string][]byte{"/x": content}, nil)
	f := fileFor("d/x", content)
	f.URL = srv.URL + "/x"
	dir := t.TempDir()
	bad := append([]byte(nil), content...)
	bad[100] ^= 1
	writeFile(t, dir, "d/x", bad)
	res, err := FetchFiles(context.Background(), dir, []File{f}, FetchOptions{Client: srv.Client()})
	if err != nil || res[0].Action != FetchDownloaded {
		t.Fatalf("fetch over a corrupt file: %+v, %v", res, err)
	}
	if st := VerifyFile(dir, f); !st.OK() {
		t.Fatalf("after fetch: %v", st)
	}
}

func TestFetchChecksumMismatch(t *testing.T) {
	content := payload(3000)
	served := append([]byte(nil), content...)
	served[1234] ^= 0xff
	srv := serve(t, map[string][]byte{"/f": served}, nil)
	f := fileFor("c/f.gz", content)
	f.URL = srv.URL + "/f"
	dir := t.TempDir()
	_, err := Fetch(context.Background(), dir, Source{Files: []File{f}}, FetchOptions{Client: srv.Client()})
	actual := fileFor("", served).SHA256
	wantErr(t, err, "c/f.gz", f.URL, "checksum mismatch", f.SHA256, actual)
	if strings.Contains(err.Error(), "\n") {
		t.Errorf("error is not one line: %q", err)
	}
	wantNoFiles(t, dir)
}

func TestFetchLongerBody(t *testing.T) {
	content := payload(1000)
	srv := serve(t, map[string][]byte{"/f": payload(50_000)}, nil)
	f := fileFor("f", content)
	f.URL = srv.URL + "/f"
	dir := t.TempDir()
	_, err := FetchFiles(context.Background(), dir, []File{f}, FetchOptions{Client: srv.Client()})
	if err == nil || !strings.Contains(err.Error(), "size mismatch") || !strings.Contains(err.Error(), "expected 1000 bytes") {
		t.Fatalf("err = %v, want a size mismatch", err)
	}
	wantNoFiles(t, dir)
}

func TestFetchHTTP404(t *testing.T) {
	srv := serve(t, nil, nil)
	f := fileFor("n/missing.tar.gz", []byte("abc"))
	f.URL = srv.URL + "/missing.tar.gz"
	dir := t.TempDir()
	res, err := FetchFiles(context.Background(), dir, []File{f}, FetchOptions{Client: srv.Client()})
	wantErr(t, err, "n/missing.tar.gz", f.URL, "404")
	if len(res) != 1 || res[0].Action != FetchFailed || res[0].Err == nil {
		t.Errorf("results = %+v", res)
	}
	wantNoFiles(t, dir)
}

// TestFetchConnectionCut: the server announces the full length, sends half
// and closes the connection.
func TestFetchConnectionCut(t *testing.T) {
	content := payload(100_000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(content)))
		w.Write(content[:len(content)/2])
		w.(http.Flusher).Flush()
		conn, _, err := w.(http.Hijacker).Hijack()
		if err == nil {
			conn.Close()
		}
	}))
	defer srv.Close()
	f := fileFor("cut/file", content)
	f.URL = srv.URL + "/file"
	dir := t.TempDir()
	_, err := FetchFiles(context.Background(), dir, []File{f}, FetchOptions{Client: srv.Client()})
	wantErr(t, err, "cut/file", f.URL, "interrupted")
	wantNoFiles(t, dir)
}

func TestFetchCancel(t *testing.T) {
	content := payload(100_000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", fmt.Sprint(len(content)))
		w.Write(content[:1000])
		w.(http.Flusher).Flush()
		<-r.Context().Done() // hang until the client goes away
	}))
	defer srv.Close()
	f := fileFor("slow/file", content)
	f.URL = srv.URL + "/file"
	g := fileFor("slow/next", []byte("next"))
	g.URL = srv.URL + "/next"
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	res, err := FetchFiles(ctx, dir, []File{f, g}, FetchOptions{
		Client:   srv.Client(),
		Progress: func(File, int64, int64) { cancel() },
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
	if len(res) != 1 {
		t.Errorf("fetch went on after cancel: %+v", res)
	}
	wantNoFiles(t, dir)

	// Cancelled before starting: nothing requested.
	_, err = FetchFiles(ctx, dir, []File{g}, FetchOptions{Client: srv.Client()})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "slow/next") {
		t.Fatalf("err = %v, want context.Canceled naming slow/next", err)
	}
}

func TestFetchMirror(t *testing.T) {
	a, b := payload(777), []byte("second file\n")
	fa, fb := fileFor("set one/a.bin", a), fileFor("set one/deep/b.txt", b)
	fa.URL, fb.URL = "", "http://127.0.0.1:1/never-used" // the mirror replaces both
	var hits atomic.Int64
	srv := serve(t, map[string][]byte{
		"/mirror/set one/a.bin":      a,
		"/mirror/set one/deep/b.txt": b,
	}, &hits)
	dir := t.TempDir()
	res, err := FetchFiles(context.Background(), dir, []File{fa, fb}, FetchOptions{Client: srv.Client(), Mirror: srv.URL + "/mirror/"})
	if err != nil {
		t.Fatal(err)
	}
	if res[0].From != srv.URL+"/mirror/set%20one/a.bin" {
		t.Errorf("fetched from %s", res[0].From)
	}
	for _, f := range []File{fa, fb} {
		if st := VerifyFile(dir, f); !st.OK() {
			t.Errorf("%v", st)
		}
	}

	// A local directory as mirror (air-gapped copy), plain path and file://.
	for _, m := range []string{dir, "file://" + dir} {
		dst := t.TempDir()
		if _, err := FetchFiles(context.Background(), dst, []File{fa, fb}, FetchOptions{Mirror: m}); err != nil {
			t.Fatalf("mirror %s: %v", m, err)
		}
		for _, f := range []File{fa, fb} {
			if st := VerifyFile(dst, f); !st.OK() {
				t.Errorf("mirror %s: %v", m, st)
			}
		}
	}
	// A local mirror missing the file names it.
	_, err = FetchFiles(context.Background(), t.TempDir(), []File{fa}, FetchOptions{Mirror: t.TempDir()})
	if err == nil || !strings.Contains(err.Error(), "set one/a.bin") {
		t.Errorf("empty local mirror: err = %v", err)
	}
}

func TestFetchNoLocation(t *testing.T) {
	f := fileFor("x/y", []byte("y"))
	f.URL = ""
	_, err := FetchFiles(context.Background(), t.TempDir(), []File{f}, FetchOptions{})
	if err == nil || !strings.Contains(err.Error(), "x/y") || !strings.Contains(err.Error(), "--mirror") {
		t.Fatalf("err = %v, want one naming x/y and --mirror", err)
	}
	f.Path = "../y"
	_, err = FetchFiles(context.Background(), t.TempDir(), []File{f}, FetchOptions{Mirror: "/nowhere"})
	if err == nil || !strings.Contains(err.Error(), "../y") {
		t.Fatalf("err = %v, want one rejecting ../y", err)
	}
}

// TestFetchPartialFailure: one bad file does not stop the others.
func TestFetchPartialFailure(t *testing.T) {
	good := payload(10)
	srv := serve(t, map[string][]byte{"/good": good}, nil)
	fg, fb := fileFor("good", good), fileFor("bad", []byte("zz"))
	fg.URL, fb.URL = srv.URL+"/good", srv.URL+"/bad"
	dir := t.TempDir()
	res, err := FetchFiles(context.Background(), dir, []File{fb, fg}, FetchOptions{Client: srv.Client()})
	if err == nil || !strings.Contains(err.Error(), "bad") {
		t.Fatalf("err = %v", err)
	}
	if len(res) != 2 || res[0].Action != FetchFailed || res[1].Action != FetchDownloaded {
		t.Fatalf("results = %+v", res)
	}
}

func TestFetchMember(t *testing.T) {
	words := []byte("a\nabout\nabove\n")
	members := []textMember{{"cacm/README", "readme"}, {"cacm/xcommon_words", "decoy"}, {"cacm/common_words", string(words)}}
	archives := map[string][]byte{
		"/c.tar":    tarBytes(t, false, members...),
		"/c.tar.gz": tarGz(t, members...),
		"/c.tgzbin": tarGz(t, members...), // told apart by content, not name
		"/c.zip":    zipBytes(t, members...),
	}
	srv := serve(t, archives, nil)
	for name := range archives {
		t.Run(name, func(t *testing.T) {
			f := fileFor("stop/common_words", words)
			f.URL, f.Member = srv.URL+name, "common_words"
			dir := t.TempDir()
			res, err := FetchFiles(context.Background(), dir, []File{f}, FetchOptions{Client: srv.Client()})
			if err != nil || res[0].Action != FetchDownloaded {
				t.Fatalf("%+v, %v", res, err)
			}
			if e := entries(t, dir); len(e) != 1 || e[0] != "stop/common_words" {
				t.Errorf("files: %v, want only stop/common_words", e)
			}
			if st := VerifyFile(dir, f); !st.OK() {
				t.Error(st)
			}
			f.Member = "nonesuch"
			f.Path = "stop/other"
			_, err = FetchFiles(context.Background(), dir, []File{f}, FetchOptions{Client: srv.Client()})
			if err == nil || !strings.Contains(err.Error(), "no member nonesuch") {
				t.Errorf("missing member: err = %v", err)
			}
		})
	}
	// A truncated archive is an error naming the file, with nothing left.
	f := fileFor("stop/common_words", words)
	f.URL, f.Member = srv.URL+"/cut", "common_words"
	whole := archives["/c.tar.gz"]
	srv2 := serve(t, map[string][]byte{"/cut": whole[:len(whole)/2]}, nil)
	f.URL = srv2.URL + "/cut"
	dir := t.TempDir()
	_, err := FetchFiles(context.Background(), dir, []File{f}, FetchOptions{Client: srv2.Client()})
	if err == nil || !strings.Contains(err.Error(), "stop/common_words") {
		t.Fatalf("truncated archive: err = %v", err)
	}
	wantNoFiles(t, dir)
}

// TestFetchThroughLinkAndFIFO: a data file that is a symbolic link (to a
// shared copy elsewhere) and holds bad bytes is fetched into the link's
// target, and the link stays; a data file that is a FIFO is refused in one
// line and stays a FIFO (issue 23: a rename replaced whatever the path
// was).
func TestFetchThroughLinkAndFIFO(t *testing.T) {
	content := payload(5000)
	srv := serve(t, map[string][]byte{"/x": content, "/y": content}, nil)
	dir, shared := t.TempDir(), t.TempDir()
	f := fileFor("d/x", content)
	f.URL = srv.URL + "/x"
	target := filepath.Join(shared, "x")
	os.WriteFile(target, []byte("stale"), 0o644)
	os.MkdirAll(filepath.Join(dir, "d"), 0o755)
	link := filepath.Join(dir, "d", "x")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	res, err := FetchFiles(context.Background(), dir, []File{f}, FetchOptions{Client: srv.Client()})
	if err != nil || res[0].Action != FetchDownloaded {
		t.Fatalf("fetch through a link: %+v, %v", res, err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symbolic link", link)
	}
	if got, _ := os.ReadFile(target); !bytes.Equal(got, content) {
		t.Errorf("the link's target was not fetched into")
	}

	g := fileFor("d/y", content)
	g.URL = srv.URL + "/y"
	fifo := filepath.Join(dir, "d", "y")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = FetchFiles(context.Background(), dir, []File{g}, FetchOptions{Client: srv.Client()})
	if err == nil || !strings.Contains(err.Error(), fifo+" is a FIFO (named pipe), not a regular file; move it away to fetch the file") {
		t.Errorf("fetch onto a FIFO: err = %v", err)
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("%s is no longer a FIFO", fifo)
	}
}
