package datasets

import (
	"bytes"
	"errors"
	"fmt"
	"io"
)

// MaxRecordBytes is the most text one document of a user's collection may
// hold: a CSV/TSV record, a JSON Lines line, a SMART record or a file of a
// folder. The largest novels are a few MB; 8 MiB is over a million words.
// Tokenizing and weighting a document takes about 14 times its size at
// peak (the tokens, their stems, the counts), so a record without a bound
// could take all the memory there is (a 100 MB CSV record took 1.65 GB);
// above the bound a record is refused in one line, and reading it stops
// at the bound, so that refusing it costs little memory too.
const MaxRecordBytes = 8 << 20

// maxRecordMiB is MaxRecordBytes in MiB, for messages.
const maxRecordMiB = MaxRecordBytes >> 20

// RecordTooLongError is the error of a line longer than MaxRecordBytes.
type RecordTooLongError struct {
	Line int // 1-based
}

func (e *RecordTooLongError) Error() string {
	return fmt.Sprintf("line %d is longer than %d MiB, the most one document may hold; split it into documents", e.Line, maxRecordMiB)
}

// recordTooLong returns the error of a reader of path that stopped at an
// over-long line, naming the file and the line, and whether err is one.
func recordTooLong(path string, err error) (error, bool) {
	var tl *RecordTooLongError
	if errors.As(err, &tl) {
		return fmt.Errorf("%s: %w", path, tl), true
	}
	return err, false
}

// lineLimitReader passes r's bytes through, and fails with a
// *RecordTooLongError once more than MaxRecordBytes of them come without
// a newline: the readers above it (encoding/csv, bufio) would otherwise
// grow their buffers to hold the whole line.
type lineLimitReader struct {
	r    io.Reader
	line int // the line being read, 1-based
	run  int // bytes of it read so far
	err  error
}

func newLineLimitReader(r io.Reader) *lineLimitReader { return &lineLimitReader{r: r, line: 1} }

func (l *lineLimitReader) Read(p []byte) (int, error) {
	if l.err != nil {
		return 0, l.err
	}
	n, err := l.r.Read(p)
	for b := p[:n]; ; {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			l.run += len(b)
		} else {
			l.run += i
		}
		if l.run > MaxRecordBytes {
			l.err = &RecordTooLongError{Line: l.line}
			return n, l.err
		}
		if i < 0 {
			break
		}
		l.line++
		l.run = 0
		b = b[i+1:]
	}
	return n, err
}

// checkDocumentSizes refuses a collection read from path with a document
// whose text is longer than MaxRecordBytes (a CSV record whose quoted
// field runs over many lines, a SMART record of many lines).
func checkDocumentSizes(path string, c *Collection) error {
	for i, d := range c.Docs {
		if len(d.Text) > MaxRecordBytes {
			return fmt.Errorf("%s: document %d (id %q) holds %.1f MiB of text, more than the %d MiB one document may hold; split it into documents",
				path, i+1, Elide(d.ID, 40), float64(len(d.Text))/(1<<20), maxRecordMiB)
		}
	}
	return nil
}
