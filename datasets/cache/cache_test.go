package cache

import (
	"encoding/binary"
	"errors"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/engine/synthetic"
)

func synth(t *testing.T) *engine.Corpus {
	t.Helper()
	cfg := synthetic.Default()
	cfg.Weighting = "tfidf" // non-integer values
	c, _, err := synthetic.Generate(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestRoundTrip(t *testing.T) {
	// A text corpus: unlabeled documents (-1), Unicode ids and terms.
	tc, _, err := text.Build(&datasets.Collection{Name: "tiny ünïcode", Docs: []datasets.Document{
		{ID: "α", Text: "naïve café naïve", Class: "x"},
		{ID: "β", Text: "café olé"},
	}}, text.Bare(text.Options{Weighting: "tf"}))
	if err != nil {
		t.Fatal(err)
	}
	// Arrays read back are never nil: an empty matrix has empty slices.
	empty, err := engine.NewCorpus("empty", []string{}, &sparse.CSR{RowPtr: []int{0}, ColIdx: []int32{}, Val: []float64{}}, []string{}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	noClasses, err := engine.NewCorpus("labels-without-classes", []string{"a"}, &sparse.CSR{Rows: 1, Cols: 1, RowPtr: []int{0, 1}, ColIdx: []int32{0}, Val: []float64{0.1}}, []string{"d"}, []int{-1}, []string{})
	if err != nil {
		t.Fatal(err)
	}
	c := Open(filepath.Join(t.TempDir(), "nested", "dir"))
	for i, corpus := range []*engine.Corpus{synth(t), tc, empty, noClasses} {
		key := Key("corpus", string(rune('0'+i)))
		if got, ok, err := c.Get(key); got.Corpus != nil || ok || err != nil {
			t.Fatalf("empty cache: %v %v %v", got, ok, err)
		}
		// Entries with 0, 1 and 2 inputs.
		var inputs []Input
		for k := range i % 3 {
			inputs = append(inputs, Input{Path: "/data/ü/" + string(rune('a'+k)), Size: int64(k) << 40, ModTime: -int64(k) - 1, SHA256: strings.Repeat("e", 64)})
		}
		// Entries with 0, 1 and 2 notes.
		var notes []string
		for k := range (i + 1) % 3 {
			notes = append(notes, "note "+string(rune('a'+k))+": ü")
		}
		if err := c.Put(key, Entry{Corpus: corpus, Inputs: inputs, Notes: notes}); err != nil {
			t.Fatal(err)
		}
		got, ok, err := c.Get(key)
		if err != nil || !ok {
			t.Fatalf("%s: hit %v err %v", corpus.Name, ok, err)
		}
		if !reflect.DeepEqual(got.Corpus, corpus) || !reflect.DeepEqual(got.Inputs, inputs) || !reflect.DeepEqual(got.Notes, notes) {
			t.Errorf("%s: round trip is not bit-exact", corpus.Name)
		}
	}
	// Only the corpus files remain: no temporary files.
	entries, _ := os.ReadDir(c.Dir())
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".corpus") {
			t.Errorf("stray file %s", e.Name())
		}
	}
	if len(entries) != 4 {
		t.Errorf("%d files", len(entries))
	}
}

func TestKey(t *testing.T) {
	a := Key("ab", "c")
	if a == Key("a", "bc") || a == Key("abc") || a == Key("ab", "c", "") {
		t.Error("keys collide across part boundaries")
	}
	if a != Key("ab", "c") || len(a) != 64 {
		t.Errorf("key %q", a)
	}
	c := Open(t.TempDir())
	for _, bad := range []string{"", "../../etc/passwd", strings.Repeat("A", 64), strings.Repeat("a", 63)} {
		if _, _, err := c.Get(bad); err == nil {
			t.Errorf("Get(%q) accepted", bad)
		}
		if err := c.Put(bad, Entry{Corpus: synth(t)}); err == nil {
			t.Errorf("Put(%q) accepted", bad)
		}
	}
	if err := c.Put(a, Entry{}); err == nil {
		t.Error("Put(nil) accepted")
	}
}

// TestCorruptIsReported damages a stored file in several ways; each read
// removes the file and reports a CorruptError naming it and the reason (a
// corrupted cache file is never rebuilt silently: failure 7 of issue 11),
// and a new Put makes it a hit again.
func TestCorruptIsReported(t *testing.T) {
	corpus := synth(t)
	entry := Entry{Corpus: corpus}
	c := Open(t.TempDir())
	key := Key("corrupt")
	other := Key("other")
	setVersion := func(b []byte) []byte {
		binary.LittleEndian.PutUint32(b[8:], FormatVersion+1)
		binary.LittleEndian.PutUint32(b[len(b)-4:], crc32.Checksum(b[:len(b)-4], castagnoli))
		return b
	}
	for _, tc := range []struct {
		name   string
		damage func([]byte) []byte
		reason string
	}{
		{"flipped bit", func(b []byte) []byte { b[len(b)/2] ^= 0x10; return b }, "checksum"},
		{"truncated", func(b []byte) []byte { return b[:len(b)/3] }, "checksum"},
		{"empty", func(b []byte) []byte { return nil }, "truncated"},
		{"bad magic", func(b []byte) []byte { b[0] = 'X'; return b }, "magic"},
		{"other version", setVersion, "format version"},
		{"other key", nil, "holds key"},
	} {
		if err := c.Put(key, entry); err != nil {
			t.Fatal(err)
		}
		path := c.Path(key)
		target := path
		if tc.damage == nil { // a valid file stored under the wrong name
			target = c.Path(other)
			b, _ := os.ReadFile(path)
			os.WriteFile(target, b, 0o644)
		} else {
			b, _ := os.ReadFile(path)
			os.WriteFile(path, tc.damage(b), 0o644)
		}
		k := key
		if target != path {
			k = other
		}
		got, ok, err := c.Get(k)
		var ce *CorruptError
		if got.Corpus != nil || ok || !errors.As(err, &ce) || ce.Path != target || !strings.Contains(err.Error(), tc.reason) {
			t.Errorf("%s: got %v hit %v err %v, want a CorruptError naming %s and %q", tc.name, got.Corpus != nil, ok, err, target, tc.reason)
		}
		if _, err := os.Stat(target); !os.IsNotExist(err) {
			t.Errorf("%s: unusable file not removed", tc.name)
		}
		if err := c.Put(k, entry); err != nil {
			t.Fatal(err)
		}
		if got, ok, _ := c.Get(k); !ok || !reflect.DeepEqual(got.Corpus, corpus) {
			t.Errorf("%s: rewritten file is not a hit", tc.name)
		}
	}
}

// TestInputUnchanged: the cheap test sees a rewrite of the same size
// (through the modification time), a truncation and a removal.
func TestInputUnchanged(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte("abc"), 0o644); err != nil {
		t.Fatal(err)
	}
	in, err := StatInput(p, "x")
	if err != nil || in.Size != 3 || !in.Unchanged() {
		t.Fatalf("StatInput = %+v, %v", in, err)
	}
	later := time.Unix(0, in.ModTime).Add(time.Second)
	os.WriteFile(p, []byte("abd"), 0o644)
	os.Chtimes(p, later, later)
	if in.Unchanged() {
		t.Error("same-size rewrite with a new mtime counted as unchanged")
	}
	in, _ = StatInput(p, "x")
	os.Truncate(p, 1)
	os.Chtimes(p, later, later)
	if in.Unchanged() {
		t.Error("truncation counted as unchanged")
	}
	os.Remove(p)
	if in.Unchanged() {
		t.Error("removed file counted as unchanged")
	}
}

// BenchmarkRoundTrip writes and reads the 1.6M-non-zero benchmark corpus.
func BenchmarkRoundTrip(b *testing.B) {
	corpus, _, err := synthetic.Generate(synthetic.Benchmark())
	if err != nil {
		b.Fatal(err)
	}
	c := Open(b.TempDir())
	key := Key("bench")
	for b.Loop() {
		if err := c.Put(key, Entry{Corpus: corpus}); err != nil {
			b.Fatal(err)
		}
		if _, ok, err := c.Get(key); !ok || err != nil {
			b.Fatal(ok, err)
		}
	}
	st, _ := os.Stat(c.Path(key))
	b.ReportMetric(float64(st.Size())/1e6, "MB")
}
