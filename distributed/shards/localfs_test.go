package shards

import (
	"bufio"
	"context"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
)

// TestWritesNeverReplacePaths: the converter's and the local file
// system's writes follow a symbolic link to its target and keep the link;
// the converter writes a FIFO to its reader; LocalFS refuses a FIFO; a
// destination folder that is a regular file is refused (issue 23: every
// write renamed a temporary file over whatever the path was).
func TestWritesNeverReplacePaths(t *testing.T) {
	dir, elsewhere := t.TempDir(), t.TempDir()
	target := filepath.Join(elsewhere, "corpus.json")
	os.WriteFile(target, []byte("stale"), 0o644)
	link := filepath.Join(dir, "corpus.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	w, err := LocalFS{}.OpenWrite(context.Background(), link)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "fresh")
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("LocalFS: %s is no longer a symbolic link", link)
	}
	if b, _ := os.ReadFile(target); string(b) != "fresh" {
		t.Errorf("LocalFS: the link's target holds %q", b)
	}

	fifo := filepath.Join(dir, "D.mtx")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := (LocalFS{}).OpenWrite(context.Background(), fifo); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("LocalFS on a FIFO: err = %v", err)
	}
	got := make(chan string, 1)
	go func() {
		b, _ := os.ReadFile(fifo)
		got <- string(b)
	}()
	if err := writeFile(fifo, func(w *bufio.Writer) error { _, err := w.WriteString("matrix"); return err }); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != "matrix" {
			t.Errorf("the FIFO's reader got %q", s)
		}
	case <-time.After(30 * time.Second):
		t.Error("the FIFO's reader got nothing")
	}
	if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		t.Errorf("%s is no longer a FIFO", fifo)
	}

	file := filepath.Join(dir, "file")
	os.WriteFile(file, []byte("mine"), 0o644)
	d, err := sparse.FromTriplets(2, 2, []sparse.Triplet{{Row: 0, Col: 0, Val: 1}, {Row: 1, Col: 1, Val: 2}})
	if err != nil {
		t.Fatal(err)
	}
	c, err := engine.NewCorpus("c", []string{"a", "b"}, d, nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := WriteCorpus(file, c, 1); err == nil || !strings.Contains(err.Error(), file+" is not a directory (it is a regular file)") {
		t.Errorf("WriteCorpus into a regular file: err = %v", err)
	}
}
