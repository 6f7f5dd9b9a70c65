package shards

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/topicmf/topicmf/internal/outfile"
)

// LocalFS is FS on the local file system. A file opened for writing is
// written under a temporary name and renamed when closed, so readers never
// see it half-written.
type LocalFS struct{}

// OpenRead opens name for reading.
func (LocalFS) OpenRead(_ context.Context, name string) (io.ReadCloser, error) { return os.Open(name) }

// Size is the size of name in bytes.
func (LocalFS) Size(_ context.Context, name string) (int64, error) {
	st, err := os.Stat(name)
	if err != nil {
		return 0, err
	}
	return st.Size(), nil
}

// OpenWrite creates name (through a temporary file renamed on Close).
// A name that is a symbolic link is followed, and its final target is
// written, so that the link stays; a name that is anything but a regular
// file (a FIFO, a device, a folder) is refused rather than renamed over.
func (LocalFS) OpenWrite(_ context.Context, name string) (io.WriteCloser, error) {
	name, err := outfile.Resolve(name)
	if err != nil {
		return nil, err
	}
	if fi, err := os.Stat(name); err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file (%s); the pipeline writes only regular files", name, fi.Mode().Type())
	}
	f, err := os.Create(name + ".tmp")
	if err != nil {
		return nil, err
	}
	return &renameOnClose{f: f, name: name}, nil
}

type renameOnClose struct {
	f    *os.File
	name string
}

func (r *renameOnClose) Write(b []byte) (int, error) { return r.f.Write(b) }

func (r *renameOnClose) Close() error {
	if err := r.f.Close(); err != nil {
		os.Remove(r.f.Name())
		return err
	}
	return os.Rename(r.f.Name(), r.name)
}
