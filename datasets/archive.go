package datasets

import (
	"archive/tar"
	"archive/zip"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"
)

// MaxMemberBytes is the largest member, by its declared size, that
// EachTarGzMember and EachZipMember accept: a member declaring more is an
// error naming the archive, the member and the size, met before the member
// is read. The largest member of any staged archive is 1.6 MB
// (cran.all.1400); 256 MiB leaves room for larger user archives while
// bounding what a reader that holds a whole member in memory (20
// Newsgroups, Movie Review) can be made to allocate by a decompression
// bomb. The archive formats make the declared size binding: a member whose
// data runs past it is a read error. Set it before reading, not while a
// reader runs.
var MaxMemberBytes int64 = 256 << 20

// memberName is a member's name as error messages show it: as is when
// every character is printable, else Go-quoted, so that a message stays
// one line whatever bytes the archive holds.
func memberName(name string) string {
	if q := strconv.Quote(name); q[1:len(q)-1] != name {
		return q
	}
	return name
}

// checkMemberSize rejects a member declaring more than MaxMemberBytes.
func checkMemberSize(path, name string, size int64) error {
	if size > MaxMemberBytes {
		return fmt.Errorf("%s: member %s declares %d bytes, more than the limit of %d", path, memberName(name), size, MaxMemberBytes)
	}
	return nil
}

// EachTarGzMember streams the regular files of a .tar.gz archive in archive
// order, calling f with each member's name and contents. It never unpacks to
// disk. A truncated or corrupt archive gives an error naming the file and
// the member being read.
func EachTarGzMember(path string, f func(name string, r io.Reader) error) error {
	file, err := os.Open(path)
	if err != nil {
		return err
	}
	defer file.Close()
	gz, err := gzip.NewReader(file)
	if err != nil {
		return fmt.Errorf("%s: not a gzip archive: %w", path, err)
	}
	defer gz.Close()
	tr := tar.NewReader(gz)
	last := "(start of archive)"
	for {
		h, err := tr.Next()
		if err == io.EOF {
			// The tar reader stops at the end-of-archive blocks; read the
			// rest of the gzip stream so that a file truncated in its
			// padding or trailer (or with a bad CRC) is still reported.
			if _, err := io.Copy(io.Discard, gz); err != nil {
				return fmt.Errorf("%s: corrupt or truncated archive after member %s: %w", path, last, err)
			}
			return nil
		}
		if err != nil {
			return fmt.Errorf("%s: corrupt or truncated archive after member %s: %w", path, last, err)
		}
		if h.Typeflag != tar.TypeReg {
			continue
		}
		if err := checkMemberSize(path, h.Name, h.Size); err != nil {
			return err
		}
		last = memberName(h.Name)
		if err := f(h.Name, tr); err != nil {
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, gzip.ErrChecksum) || errors.Is(err, gzip.ErrHeader) {
				return fmt.Errorf("%s: corrupt or truncated archive in member %s: %w", path, last, err)
			}
			return fmt.Errorf("%s: member %s: %w", path, last, err)
		}
	}
}

// EachZipMember calls f for every regular file of a .zip archive, in
// archive order, reading each member as a stream.
func EachZipMember(path string, f func(name string, r io.Reader) error) error {
	zr, err := zip.OpenReader(path)
	if err != nil {
		return fmt.Errorf("%s: not a readable zip archive: %w", path, err)
	}
	defer zr.Close()
	for _, zf := range zr.File {
		if strings.HasSuffix(zf.Name, "/") {
			continue
		}
		if zf.UncompressedSize64 > uint64(MaxMemberBytes) {
			return checkMemberSize(path, zf.Name, int64(min(zf.UncompressedSize64, math.MaxInt64)))
		}
		rc, err := zf.Open()
		if err != nil {
			return fmt.Errorf("%s: member %s: %w", path, memberName(zf.Name), err)
		}
		err = f(zf.Name, rc)
		rc.Close()
		if err != nil {
			return fmt.Errorf("%s: member %s: %w", path, memberName(zf.Name), err)
		}
	}
	return nil
}

// OpenMaybeGzip opens path and, when its name ends in .gz, decompresses it
// as a stream. Close closes both.
func OpenMaybeGzip(path string) (io.ReadCloser, error) {
	file, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(path, ".gz") {
		return file, nil
	}
	gz, err := gzip.NewReader(file)
	if err != nil {
		file.Close()
		return nil, fmt.Errorf("%s: not a gzip file: %w", path, err)
	}
	return gzipFile{gz, file}, nil
}

type gzipFile struct {
	*gzip.Reader
	file *os.File
}

func (g gzipFile) Close() error {
	g.Reader.Close()
	return g.file.Close()
}
