package cache

import (
	"bytes"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/fuzzcheck"
)

// FuzzGet decodes arbitrary corpus files through Get. The input is a file
// without its trailing CRC-32C, which the target appends, so that the
// fuzzer explores the decoder rather than the checksum. Get must return
// within the bound, never panic, and either report the file (a miss
// recorded in Discarded, or a one-line error naming the file) or return a
// corpus; a corpus stored again with Put must give back the same bytes
// (the encoding is canonical). Seeds: testdata/fuzz/FuzzGet, files written
// by Put (labelled, unlabelled, empty) with their checksum removed.
func FuzzGet(f *testing.F) {
	key := Key("fuzz")
	table := crc32.MakeTable(crc32.Castagnoli)
	f.Fuzz(func(t *testing.T, body []byte) {
		file := binary.LittleEndian.AppendUint32(bytes.Clone(body), crc32.Checksum(body, table))
		c := Open(t.TempDir())
		if err := os.WriteFile(c.Path(key), file, 0o644); err != nil {
			t.Fatal(err)
		}
		var hit bool
		var err error
		fuzzcheck.Within(t, func() {
			corpus, ok, e := c.Get(key)
			hit, err = ok, e
			if !ok {
				return
			}
			again := Open(filepath.Join(t.TempDir(), "again"))
			if err := again.Put(key, corpus); err != nil {
				t.Fatalf("storing a corpus read from the cache: %v", err)
			}
			got, err := os.ReadFile(again.Path(key))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, file) {
				t.Fatalf("a decoded corpus encodes to other bytes:\n%q\n%q", file, got)
			}
		})
		switch {
		case err != nil:
			fuzzcheck.OneLine(t, err)
			if !strings.Contains(err.Error(), c.Path(key)) {
				t.Fatalf("error does not name the file: %v", err)
			}
		case !hit:
			d := c.Discarded()
			if len(d) != 1 || !strings.HasPrefix(d[0], c.Path(key)+": ") {
				t.Fatalf("a miss on an existing file recorded %q, want one reason naming the file", d)
			}
			fuzzcheck.OneLine(t, errors.New(d[0]))
		}
	})
}
