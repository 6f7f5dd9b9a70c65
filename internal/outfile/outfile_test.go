package outfile

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

func text(s string) func(io.Writer) error {
	return func(w io.Writer) error {
		_, err := io.WriteString(w, s)
		return err
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// leftovers fails if dir holds a temporary file.
func leftovers(t *testing.T, dir string) {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".tmp-") {
			t.Errorf("temporary file %s left in %s", e.Name(), dir)
		}
	}
}

func TestWriteNewAndRegular(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	if err := Write(p, nil, text("one\n")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, p); got != "one\n" {
		t.Errorf("new file holds %q", got)
	}
	if err := os.Chmod(p, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Write(p, nil, text("two\n")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, p); got != "two\n" {
		t.Errorf("rewritten file holds %q", got)
	}
	if fi, _ := os.Stat(p); fi.Mode().Perm() != 0o600 {
		t.Errorf("rewritten file has mode %v, want its old 0600", fi.Mode().Perm())
	}
	leftovers(t, dir)
}

// TestFailureLeavesOriginal: a write that fails leaves the file as it was
// and no temporary file.
func TestFailureLeavesOriginal(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(p, []byte("original\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	boom := errors.New("boom")
	err := Write(p, nil, func(w io.Writer) error {
		io.WriteString(w, "half")
		return boom
	})
	if !errors.Is(err, boom) {
		t.Fatalf("err = %v, want boom", err)
	}
	if got := readFile(t, p); got != "original\n" {
		t.Errorf("after a failed write the file holds %q", got)
	}
	leftovers(t, dir)
}

func TestStdout(t *testing.T) {
	var b bytes.Buffer
	if err := Write("-", &b, text("x")); err != nil || b.String() != "x" {
		t.Errorf("stdout got %q, %v", b.String(), err)
	}
}

func TestDirectoryRefused(t *testing.T) {
	dir := t.TempDir()
	err := Write(dir, nil, text("x"))
	if err == nil || err.Error() != dir+" is a directory, not a file" {
		t.Errorf("err = %v", err)
	}
	leftovers(t, dir)
	leftovers(t, filepath.Dir(dir))
}

// TestFIFOWrittenNotReplaced: a FIFO is opened and written, so its reader
// gets the bytes and the FIFO stays a FIFO.
func TestFIFOWrittenNotReplaced(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(p, 0o600); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	got := make(chan string, 1)
	go func() {
		b, err := os.ReadFile(p) // blocks until the writer opens
		if err != nil {
			got <- "error: " + err.Error()
			return
		}
		got <- string(b)
	}()
	want := strings.Repeat("line\n", 50000) // more than a pipe's buffer
	if err := Write(p, nil, text(want)); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != want {
			t.Errorf("the reader got %d bytes, want %d", len(s), len(want))
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the reader got nothing")
	}
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("%s is no longer a FIFO: %v %v", p, fi.Mode(), err)
	}
	leftovers(t, dir)
}

// TestSymlinkWrittenThrough: the link stays a link and its target (in
// another directory, reached through a chain of two links) gets the bytes;
// the temporary file is made beside the target.
func TestSymlinkWrittenThrough(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "sub")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	target := filepath.Join(sub, "target.txt")
	if err := os.WriteFile(target, []byte("old\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	mid := filepath.Join(dir, "mid")
	if err := os.Symlink("sub/target.txt", mid); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link")
	if err := os.Symlink(mid, link); err != nil {
		t.Fatal(err)
	}
	if err := Write(link, nil, text("new\n")); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{link, mid} {
		if fi, err := os.Lstat(l); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s is no longer a symbolic link", l)
		}
	}
	if got := readFile(t, target); got != "new\n" {
		t.Errorf("target holds %q", got)
	}
	leftovers(t, dir)
	leftovers(t, sub)

	// A dangling link: its target is created.
	dangling := filepath.Join(dir, "dangling")
	if err := os.Symlink("sub/new.txt", dangling); err != nil {
		t.Fatal(err)
	}
	if err := Write(dangling, nil, text("made\n")); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, filepath.Join(sub, "new.txt")); got != "made\n" {
		t.Errorf("dangling link's target holds %q", got)
	}
	if fi, err := os.Lstat(dangling); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("%s is no longer a symbolic link", dangling)
	}

	// A loop of links is an error, not a hang.
	a, b := filepath.Join(dir, "a"), filepath.Join(dir, "b")
	os.Symlink(b, a)
	os.Symlink(a, b)
	if err := Write(a, nil, text("x")); err == nil || !strings.Contains(err.Error(), "symbolic links") {
		t.Errorf("loop: err = %v", err)
	}
}

// TestDeviceWrittenNotReplaced makes a character device with the numbers
// of the null device inside a temporary folder (never touching /dev) and
// checks that it is written, not renamed over. It needs root (CAP_MKNOD).
func TestDeviceWrittenNotReplaced(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "null")
	if err := unix.Mknod(p, unix.S_IFCHR|0o666, int(unix.Mkdev(1, 3))); err != nil {
		t.Skipf("cannot make a device node in a temporary folder (needs root with CAP_MKNOD): %v", err)
	}
	if err := Write(p, nil, text(strings.Repeat("x", 1<<20))); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Lstat(p)
	if err != nil || fi.Mode()&fs.ModeCharDevice == 0 {
		t.Errorf("%s is no longer a character device: %v %v", p, fi.Mode(), err)
	}
	leftovers(t, dir)
}

func TestSocketWrittenNotReplaced(t *testing.T) {
	dir, err := os.MkdirTemp("", "sock") // short: socket paths are limited to ~108 bytes
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	p := filepath.Join(dir, "s")
	l, err := net.Listen("unix", p)
	if err != nil {
		t.Skipf("cannot listen on a Unix socket: %v", err)
	}
	defer l.Close()
	got := make(chan string, 1)
	go func() {
		c, err := l.Accept()
		if err != nil {
			got <- err.Error()
			return
		}
		b, _ := io.ReadAll(c)
		got <- string(b)
	}()
	if err := Write(p, nil, text("hello")); err != nil {
		t.Fatal(err)
	}
	if s := <-got; s != "hello" {
		t.Errorf("the socket got %q", s)
	}
	if fi, err := os.Lstat(p); err != nil || fi.Mode()&fs.ModeSocket == 0 {
		t.Errorf("%s is no longer a socket", p)
	}
}

func TestCheckDir(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	os.WriteFile(file, nil, 0o644)
	fifo := filepath.Join(dir, "fifo")
	syscall.Mkfifo(fifo, 0o600)
	link := filepath.Join(dir, "link")
	os.Symlink(dir, link)
	for _, c := range []struct {
		path, err string
	}{
		{dir, ""},
		{link, ""},
		{filepath.Join(dir, "new"), ""},
		{file, file + " is not a directory (it is a regular file)"},
		{fifo, fifo + " is not a directory (it is a FIFO)"},
	} {
		err := CheckDir(c.path)
		if (err == nil) != (c.err == "") || err != nil && err.Error() != c.err {
			t.Errorf("CheckDir(%s) = %v, want %q", c.path, err, c.err)
		}
	}
}
