// Package outfile writes a file at a path the user named without ever
// replacing what that path is. Writing a result "atomically" by renaming a
// temporary file over the path is right for a regular file, and wrong for
// everything else a user can name: renamed over, /dev/null becomes a
// regular file, a FIFO's reader is left waiting on a pipe nobody writes, and
// a symbolic link is replaced by a file while its target keeps the old
// content. The rules, by what the path is when the write starts:
//
//   - "-": standard output.
//   - a character or block device, a FIFO: opened and written in place;
//     a Unix socket: connected to and written. Never renamed over.
//   - a symbolic link: followed to its final target (which need not exist
//     yet), and that target is written by these same rules, so a regular
//     target is replaced atomically beside itself and the link stays.
//   - a directory: an error naming the path.
//   - a regular file or a path that does not exist: written atomically, to
//     a temporary file in the same directory that is fsynced and renamed
//     over the path, then the directory is fsynced. An existing file keeps
//     its permission bits; a new one gets 0644.
//
// A failure before the rename leaves the original untouched and removes
// the temporary file. A device, FIFO or socket is a stream: what was
// written before a failure has been delivered, which no writer can undo.
package outfile

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"path/filepath"
)

// Stdout is the path that names standard output.
const Stdout = "-"

// maxLinks bounds how many symbolic links Resolve follows, as the kernel
// does (Linux: 40), so that a loop of links is an error rather than a hang.
const maxLinks = 40

// Write writes path with what write produces, by the rules of the package
// doc; stdout is what "-" names.
func Write(path string, stdout io.Writer, write func(io.Writer) error) error {
	if path == Stdout {
		return write(stdout)
	}
	target, err := Resolve(path)
	if err != nil {
		return err
	}
	fi, err := os.Stat(target)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return writeAtomic(path, target, 0o644, write)
	case err != nil:
		return err
	case fi.IsDir():
		return fmt.Errorf("%s is a directory, not a file", path)
	case fi.Mode()&fs.ModeSocket != 0:
		return writeSocket(path, target, write)
	case fi.Mode()&(fs.ModeDevice|fs.ModeCharDevice|fs.ModeNamedPipe) != 0:
		return writeInPlace(path, target, write)
	case fi.Mode().IsRegular():
		return writeAtomic(path, target, fi.Mode().Perm(), write)
	default:
		return fmt.Errorf("%s is %s, not a file this program can write", path, describe(fi.Mode()))
	}
}

// Bytes writes data to path (see Write).
func Bytes(path string, stdout io.Writer, data []byte) error {
	return Write(path, stdout, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// Resolve follows path through symbolic links to the final target, which
// need not exist (a dangling link resolves to the path it points at). Only
// the last element of the path is followed; the directories leading to it
// are resolved by the system when the target is opened or renamed into.
func Resolve(path string) (string, error) {
	p := path
	for range maxLinks {
		fi, err := os.Lstat(p)
		if errors.Is(err, fs.ErrNotExist) {
			return p, nil
		}
		if err != nil {
			return "", err
		}
		if fi.Mode()&fs.ModeSymlink == 0 {
			return p, nil
		}
		dest, err := os.Readlink(p)
		if err != nil {
			return "", err
		}
		if !filepath.IsAbs(dest) {
			dest = filepath.Join(filepath.Dir(p), dest)
		}
		p = dest
	}
	return "", fmt.Errorf("%s: more than %d symbolic links to follow (a loop?)", path, maxLinks)
}

// writeInPlace opens a device or FIFO (target, which path names) for
// writing and writes it. Opening a FIFO waits for a reader, as a shell
// redirection does.
func writeInPlace(path, target string, write func(io.Writer) error) error {
	f, err := os.OpenFile(target, os.O_WRONLY, 0)
	if err != nil {
		return fmt.Errorf("opening %s: %w", path, pathless(err))
	}
	bw := bufio.NewWriterSize(f, 1<<16)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, pathless(err))
	}
	return nil
}

// writeSocket connects to the Unix socket target (which path names) and
// writes to it.
func writeSocket(path, target string, write func(io.Writer) error) error {
	c, err := net.Dial("unix", target)
	if err != nil {
		return fmt.Errorf("connecting to the socket %s: %w", path, err)
	}
	bw := bufio.NewWriterSize(c, 1<<16)
	err = write(bw)
	if err == nil {
		err = bw.Flush()
	}
	if cerr := c.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	return nil
}

// writeAtomic writes target (a regular file or a new path, which path
// names, possibly through links) through a temporary file beside it,
// fsynced and renamed over it, then fsyncs the directory.
func writeAtomic(path, target string, perm fs.FileMode, write func(io.Writer) error) (err error) {
	dir := filepath.Dir(target)
	f, err := os.CreateTemp(dir, ".tmp-"+filepath.Base(target)+"-*")
	if err != nil {
		return fmt.Errorf("writing %s: %w", path, pathless(err))
	}
	defer func() {
		if err != nil {
			f.Close()
			os.Remove(f.Name())
		}
	}()
	bw := bufio.NewWriterSize(f, 1<<16)
	if err := write(bw); err != nil {
		return fmt.Errorf("writing %s: %w", path, pathless(err))
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("writing %s: %w", path, pathless(err))
	}
	if err := f.Chmod(perm); err != nil {
		return fmt.Errorf("writing %s: %w", path, pathless(err))
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("syncing %s: %w", path, pathless(err))
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("closing %s: %w", path, pathless(err))
	}
	if err := os.Rename(f.Name(), target); err != nil {
		return fmt.Errorf("writing %s: %w", path, pathless(err))
	}
	return syncDir(dir)
}

// syncDir fsyncs a directory so that a rename in it is durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("syncing directory %s: %w", dir, err)
	}
	return nil
}

// pathless is the cause of a *fs.PathError (e.g. "no space left on
// device"), whose path would name the temporary file rather than the file
// being written; other errors are returned as they are.
func pathless(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// CheckDir checks a directory the user named for a program to write into
// (fit --out, a report's output, a Beam destination): a directory, or a
// symbolic link to one, is fine; a path that does not exist is fine (the
// caller creates it); anything else — a regular file, a device, a FIFO, a
// socket — is an error naming the path, so that nothing is ever created
// beside or over it.
func CheckDir(path string) error {
	fi, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s is not a directory (it is %s)", path, describe(fi.Mode()))
	}
	return nil
}

// describe names a file's type for an error message.
func describe(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	default:
		return "a " + m.Type().String()
	}
}
