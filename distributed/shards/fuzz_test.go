package shards

import (
	"encoding/hex"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/internal/fuzzcheck"
)

// Fuzz targets for the record parsers and the corpus manifest check, which
// read files a user or another program wrote. Beyond "no panic", each
// asserts what a caller relies on: an accepted record satisfies the
// format's invariants (package doc) and survives a write and a re-read bit
// for bit; an error is one line; an accepted manifest describes shards
// that cover its documents within the size bounds.

// FuzzParseDoc feeds a document line to ParseDoc.
func FuzzParseDoc(f *testing.F) {
	f.Add("0\tdoc0\t-1\t0:1 3:0.5", 4, 0)
	f.Add("12\tx\t1\t", 30, 2)
	f.Add("5\tx5\t1\t4:1 3:1", 30, 2)
	f.Add("7\ta b\t0\t2:-0 9:1e-308", 10, 1)
	f.Add("3\t\t-1\t0:NaN", 5, 0)
	f.Fuzz(func(t *testing.T, line string, terms, classes int) {
		if strings.ContainsRune(line, '\n') {
			t.Skip("EachLine never passes a newline")
		}
		var d Doc
		var err error
		fuzzcheck.Within(t, func() { d, err = ParseDoc(line, terms, classes) })
		if err != nil {
			fuzzcheck.OneLine(t, err)
			return
		}
		if d.N < 0 || d.Class < -1 || d.Class >= int64(max(classes, 0)) || strings.ContainsAny(d.ID, "\t\n") {
			t.Fatalf("accepted %+v from %q (terms %d, classes %d)", d, line, terms, classes)
		}
		if len(d.Terms) != len(d.Vals) {
			t.Fatalf("%d terms, %d values", len(d.Terms), len(d.Vals))
		}
		for i, m := range d.Terms {
			if m < 0 || int(m) >= terms || i > 0 && m <= d.Terms[i-1] || math.IsNaN(d.Vals[i]) || math.IsInf(d.Vals[i], 0) {
				t.Fatalf("entry %d: term %d, value %v of %q (terms %d)", i, m, d.Vals[i], line, terms)
			}
		}
		out := AppendDoc(nil, d)
		back, err := ParseDoc(strings.TrimSuffix(string(out), "\n"), terms, classes)
		if err != nil {
			t.Fatalf("re-reading %q: %v", out, err)
		}
		if back.N != d.N || back.ID != d.ID || back.Class != d.Class || len(back.Terms) != len(d.Terms) {
			t.Fatalf("round trip: %+v, want %+v", back, d)
		}
		for i := range d.Terms {
			if back.Terms[i] != d.Terms[i] || math.Float64bits(back.Vals[i]) != math.Float64bits(d.Vals[i]) {
				t.Fatalf("round trip entry %d: %d:%v, want %d:%v", i, back.Terms[i], back.Vals[i], d.Terms[i], d.Vals[i])
			}
		}
	})
}

// FuzzParseRow feeds a factor row line to ParseRow.
func FuzzParseRow(f *testing.F) {
	f.Add("0\t1 2 3", 3, int64(10))
	f.Add("9\t-0 1e-320 5", 3, int64(10))
	f.Add("10\t1", 1, int64(10))
	f.Add("-1\t1", 1, int64(10))
	f.Add("2\t1  2\t3", 3, int64(3))
	f.Add("4\tInf", 1, int64(5))
	f.Fuzz(func(t *testing.T, line string, k int, limit int64) {
		var r Row
		var err error
		fuzzcheck.Within(t, func() { r, err = ParseRow(line, k, limit) })
		if err != nil {
			fuzzcheck.OneLine(t, err)
			return
		}
		if r.Index < 0 || r.Index >= limit || len(r.Vals) != k {
			t.Fatalf("accepted row %d with %d values from %q (k %d, limit %d)", r.Index, len(r.Vals), line, k, limit)
		}
		out := AppendRow(nil, r)
		back, err := ParseRow(strings.TrimSuffix(string(out), "\n"), k, limit)
		if err != nil {
			t.Fatalf("re-reading %q: %v", out, err)
		}
		if back.Index != r.Index {
			t.Fatalf("round trip index %d, want %d", back.Index, r.Index)
		}
		for i, x := range r.Vals {
			if math.IsNaN(x) || math.IsInf(x, 0) || math.Float64bits(back.Vals[i]) != math.Float64bits(x) {
				t.Fatalf("value %d: %v, re-read %v", i, x, back.Vals[i])
			}
		}
	})
}

// FuzzCorpusManifest feeds corpus.json to Validate.
func FuzzCorpusManifest(f *testing.F) {
	f.Add(`{"format":"topicmf-docs/1","terms":12,"documents":30,"vocab":"vocab.txt","shards":[{"file":"a.tsv","first":0,"count":15},{"file":"b.tsv","first":15,"count":15}]}`)
	f.Add(`{"format":"topicmf-docs/1","terms":3,"documents":4,"vocab":"vocab.txt","classes":["x","y"],"shards":[{"file":"a.tsv","first":0,"count":4,"class_counts":[1,3]}]}`)
	f.Add(`{"format":"topicmf-docs/1","terms":12,"documents":10000000015,"vocab":"vocab.txt","shards":[{"file":"a.tsv","first":0,"count":15},{"file":"b.tsv","first":15,"count":10000000000}]}`)
	f.Add(`{"format":"topicmf-docs/1","terms":1000000000000,"documents":1,"vocab":"vocab.txt","shards":[{"file":"a.tsv","first":0,"count":1}]}`)
	f.Add(`{"format":"topicmf-docs/1","terms":2,"documents":2,"vocab":"../v","classes":["x"],"shards":[{"file":"a.tsv","first":0,"count":2,"class_counts":[-5]}]}`)
	f.Fuzz(func(t *testing.T, data string) {
		var c CorpusManifest
		if json.Unmarshal([]byte(data), &c) != nil {
			return
		}
		var err error
		fuzzcheck.Within(t, func() { err = c.Validate() })
		if err != nil {
			fuzzcheck.OneLine(t, err)
			return
		}
		if c.Terms < 1 || c.Terms > MaxTerms || c.Documents < 1 || c.Documents > MaxDocuments || !plainName(c.Vocab) {
			t.Fatalf("accepted %d terms × %d documents, vocab %q", c.Terms, c.Documents, c.Vocab)
		}
		next := 0
		for i, s := range c.Shards {
			if s.First != next || s.Count < 0 || !plainName(s.File) {
				t.Fatalf("accepted shard %d %+v (next document %d)", i, s, next)
			}
			next += s.Count
			sum := 0
			for _, n := range s.ClassCounts {
				if n < 0 || n > s.Count-sum {
					t.Fatalf("accepted shard %d class counts %v of %d documents", i, s.ClassCounts, s.Count)
				}
				sum += n
			}
		}
		if next != c.Documents {
			t.Fatalf("accepted shards of %d documents for %d", next, c.Documents)
		}
		total := 0
		for _, n := range c.ClassSizes() {
			total += n
		}
		for i, offs := range c.ClassOffsets() {
			for p, o := range offs {
				if o < 0 || o > int64(total) {
					t.Fatalf("shard %d class %d offset %d outside 0..%d", i, p, o, total)
				}
			}
		}
	})
}

// FuzzIterManifest feeds an iteration's manifest.json, with its shard
// checksums, to Validate: an accepted manifest lists each factor's shards
// by their names in order, within the bounds, with a well-formed SHA-256
// for exactly those shards.
func FuzzIterManifest(f *testing.F) {
	sum := strings.Repeat("0123456789abcdef", 4)
	f.Add(`{"format":"topicmf-factors/3","iteration":0,"model":"rlsi","config":"ab","terms":12,"documents":30,"u_cols":2,"v_cols":2,"v":["V-00000-of-00001.tsv"],"sha256":{"V-00000-of-00001.tsv":"` + sum + `"}}`)
	f.Add(`{"format":"topicmf-factors/3","iteration":6,"model":"rlsi","terms":12,"documents":30,"u_cols":2,"v_cols":2,"u":["U-00000-of-00002.tsv","U-00001-of-00002.tsv"],"v":["V-00000-of-00002.tsv","V-00001-of-00002.tsv"],"sha256":{"U-00000-of-00002.tsv":"` + sum + `","U-00001-of-00002.tsv":"` + sum + `","V-00000-of-00002.tsv":"` + sum + `","V-00001-of-00002.tsv":"` + sum + `"}}`)
	f.Add(`{"format":"topicmf-factors/3","iteration":1,"terms":12,"documents":30,"u_cols":5,"v_cols":3,"u":["U-00000-of-00001.tsv"],"v":["V-00000-of-00001.tsv"],"sha256":{"U-00000-of-00001.tsv":"` + strings.ToUpper(sum) + `","V-00000-of-00001.tsv":"` + sum + `"}}`)
	f.Add(`{"format":"topicmf-factors/3","iteration":1,"terms":12,"documents":30,"u_cols":2,"v_cols":2,"u":["../U-00000-of-00001.tsv"],"v":["V-00000-of-00001.tsv"],"sha256":{"V-00000-of-00001.tsv":"` + sum + `","x":"` + sum + `"}}`)
	f.Add(`{"format":"topicmf-factors/2","iteration":1,"terms":12,"documents":30,"u_cols":2,"v_cols":2,"u":["U-00000-of-00001.tsv"],"v":["V-00000-of-00001.tsv"]}`)
	f.Fuzz(func(t *testing.T, data string) {
		var m IterManifest
		if json.Unmarshal([]byte(data), &m) != nil {
			return
		}
		var err error
		fuzzcheck.Within(t, func() { err = m.Validate() })
		if err != nil {
			fuzzcheck.OneLine(t, err)
			return
		}
		if m.Format != FactorsFormat || m.Iteration < 0 || m.Terms < 1 || m.Terms > MaxTerms || m.Documents < 1 || m.Documents > MaxDocuments ||
			m.VCols < 1 || m.VCols > min(m.Terms, m.Documents) || m.UCols < m.VCols {
			t.Fatalf("accepted %+v", m)
		}
		if len(m.V) == 0 || len(m.SHA256) != len(m.U)+len(m.V) {
			t.Fatalf("accepted %d U and %d V shards with %d checksums", len(m.U), len(m.V), len(m.SHA256))
		}
		for _, f := range []struct {
			factor string
			files  []string
		}{{"U", m.U}, {"V", m.V}} {
			for i, name := range f.files {
				if name != ShardName(f.factor, i, len(f.files)) || !plainName(name) {
					t.Fatalf("accepted %s shard %d named %q", f.factor, i, name)
				}
				if sum, err := hex.DecodeString(m.SHA256[name]); err != nil || len(sum) != 32 || strings.ToLower(m.SHA256[name]) != m.SHA256[name] {
					t.Fatalf("accepted checksum %q of %s", m.SHA256[name], name)
				}
			}
		}
	})
}
