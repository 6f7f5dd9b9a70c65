package datasets

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestRecordLimit: a document longer than MaxRecordBytes is refused in one
// line of our own words, naming the file and the line or document, in
// every format (issue 23: a 100 MB CSV record took 1.65 GB, and the SMART
// reader failed with "bufio.Scanner: token too long"); reading stops at
// the bound, so that refusing a long line allocates a small multiple of
// the bound, not of the line (counted as all bytes allocated, an upper
// bound of the peak: growing buffers by doubling allocates twice their
// final size). A document just under the bound is read.
func TestRecordLimit(t *testing.T) {
	dir := t.TempDir()
	words := strings.Repeat("engine wheel ", MaxRecordBytes/13+100) // > MaxRecordBytes
	lines := strings.Repeat("engine wheel\n", MaxRecordBytes/13+1)
	under := words[:MaxRecordBytes-100]
	write := func(name, s string) string {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	line := func(n int) string {
		return "line " + string(rune('0'+n)) + " is longer than 8 MiB, the most one document may hold; split it into documents"
	}
	for _, c := range []struct {
		name, content, format, want string
	}{
		{"long.csv", "id,text\n1,short\n2," + words + "\n", "", line(3)},
		{"long.tsv", "id\ttext\n1\t" + words + "\n", "", line(2)},
		{"long.jsonl", `{"id": 1, "text": "` + words + `"}` + "\n", "", line(1)},
		{"long.smart", ".I 1\n.W\n" + words + "\n", FormatSMART, line(3)},
		{"lines.smart", ".I 1\n.W\nshort\n.I 2\n.W\n" + lines, FormatSMART, `document 2 (id "2") holds 8.0 MiB of text, more than the 8 MiB one document may hold; split it into documents`},
		{"lines.csv", "id,text\n7,\"" + lines + "\"\n", "", `document 1 (id "7") holds 8.0 MiB of text, more than the 8 MiB one document may hold`},
		{"folder/c/big.txt", words, "", `file "c/big.txt" is 8.0 MiB, more than the 8 MiB one document may hold; split it into documents`},
	} {
		p := write(c.name, c.content)
		if strings.HasPrefix(c.name, "folder/") {
			write("folder/c/small.txt", "engine")
			p = filepath.Join(dir, "folder")
		}
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := ReadUser(p, UserOptions{Format: c.format})
		runtime.ReadMemStats(&after)
		if err == nil || !strings.HasPrefix(err.Error(), p+": ") || !strings.Contains(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: err = %v, want %s: …%s", c.name, err, p, c.want)
		}
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: %.1f MiB allocated in all to refuse a %.1f MiB file", c.name, float64(alloc)/(1<<20), float64(len(c.content))/(1<<20))
		if !strings.HasPrefix(c.name, "lines.") && alloc > 12*MaxRecordBytes {
			t.Errorf("%s: %d bytes allocated to refuse a long line, more than 12 × MaxRecordBytes", c.name, alloc)
		}
	}
	p := write("under.csv", "id,text\n1,"+under+"\n")
	c, err := ReadUser(p, UserOptions{})
	if err != nil || len(c.Docs) != 1 || len(c.Docs[0].Text) != len(under) {
		t.Errorf("a document just under the bound: %v", err)
	}
}
