package modelio

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"unicode/utf8"

	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/engine/factortest"
	"github.com/topicmf/topicmf/engine/lda"
	"github.com/topicmf/topicmf/engine/nmf"
	"github.com/topicmf/topicmf/internal/fuzzcheck"
)

// memFiles is a FileWriter into memory, read back as an fstest.MapFS.
type memFiles fstest.MapFS

func (m memFiles) WriteFile(name string, write func(io.Writer) error) error {
	var b strings.Builder
	if err := write(&b); err != nil {
		return err
	}
	m[name] = &fstest.MapFile{Data: []byte(b.String())}
	return nil
}

// saved fits a small model of the family with the given options on a
// planted corpus and returns its saved files.
func saved(t testing.TB, method engine.Method) (engine.Model, fstest.MapFS) {
	t.Helper()
	c := factortest.Corpus(t, 60, 80, 3, 1)
	m, _, err := method.Fit(context.Background(), c, engine.NewRecorder())
	if err != nil {
		t.Fatal(err)
	}
	files := memFiles{}
	if err := Write(files, m); err != nil {
		t.Fatal(err)
	}
	return m, fstest.MapFS(files)
}

func ldaMethod() engine.Method {
	o := lda.Defaults()
	o.K, o.Iters, o.FoldInIters = 3, 20, 10
	return o
}

// TestHeader: model.json records the format, the version, the family, every
// declared parameter with its value as used (α = 50/K resolved to a number)
// and, for every matrix, its file, shape and the SHA-256 of the file.
func TestHeader(t *testing.T) {
	_, files := saved(t, ldaMethod())
	var h Header
	if err := json.Unmarshal(files[HeaderFile].Data, &h); err != nil {
		t.Fatal(err)
	}
	if h.Format != "topicmf-model" || h.Version != 1 || h.Family != "lda" {
		t.Errorf("header %+v", h)
	}
	fam, _ := catalog.Lookup("lda")
	if len(h.Params) != len(fam.Params) {
		t.Errorf("params %v, want every one of the %d declared", h.Params, len(fam.Params))
	}
	if h.Params["alpha"] != "16.666666666666668" || h.Params["burnin"] != "10" || h.Params["k"] != "3" {
		t.Errorf("params as used: alpha %q (want 50/3), burnin %q (want 10), k %q", h.Params["alpha"], h.Params["burnin"], h.Params["k"])
	}
	if len(h.Matrices) != 2 {
		t.Fatalf("matrices %+v", h.Matrices)
	}
	for _, mf := range h.Matrices {
		sum := sha256.Sum256(files[mf.File].Data)
		if mf.SHA256 != hex.EncodeToString(sum[:]) || mf.File != mf.Name+".mtx" || mf.Cols != 3 {
			t.Errorf("matrix %+v: file's SHA-256 %x", mf, sum)
		}
	}
	if h.Matrices[0].Name != "phi" || h.Matrices[0].Rows != 60 || h.Matrices[1].Name != "theta" || h.Matrices[1].Rows != 80 {
		t.Errorf("matrices %+v, want phi 60×3 and theta 80×3", h.Matrices)
	}
}

// TestWriteDir: a saved model reads back from its directory; a directory
// that already holds one is refused and left as it was.
func TestWriteDir(t *testing.T) {
	m, _ := saved(t, nmf.Options{K: 3, Stopping: engine.Stopping{MaxIter: 10}})
	dir := filepath.Join(t.TempDir(), "model")
	if err := WriteDir(dir, m); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(filepath.Join(dir, HeaderFile))
	err := WriteDir(dir, m)
	if err == nil || !strings.Contains(err.Error(), "already holds a saved model") {
		t.Errorf("second WriteDir: %v", err)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, HeaderFile)); string(after) != string(before) {
		t.Error("the refused WriteDir changed model.json")
	}
	loaded, h, err := ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if h.Family != "nmf" || factortest.DiffBits(loaded.TermTopics(), m.TermTopics()) != "" {
		t.Errorf("loaded %s model differs", h.Family)
	}
	ents, _ := os.ReadDir(dir)
	for _, e := range ents {
		if strings.HasPrefix(e.Name(), ".tmp") {
			t.Errorf("temporary file %s left behind", e.Name())
		}
	}
}

// TestLoadChecks: every damage to a saved model is refused in one line
// that starts with the file concerned and says what is wrong.
func TestLoadChecks(t *testing.T) {
	_, good := saved(t, ldaMethod())
	header := func(edit func(h map[string]any)) func(fs fstest.MapFS) {
		return func(fs fstest.MapFS) {
			var h map[string]any
			if err := json.Unmarshal(fs[HeaderFile].Data, &h); err != nil {
				t.Fatal(err)
			}
			edit(h)
			b, _ := json.Marshal(h)
			fs[HeaderFile] = &fstest.MapFile{Data: b}
		}
	}
	matrix := func(h map[string]any, i int) map[string]any {
		return h["matrices"].([]any)[i].(map[string]any)
	}
	// rehash replaces a matrix file and its header's SHA-256, so that the
	// check after the checksum is reached.
	rehash := func(name, data string) func(fs fstest.MapFS) {
		return func(fs fstest.MapFS) {
			fs[name+".mtx"] = &fstest.MapFile{Data: []byte(data)}
			sum := sha256.Sum256([]byte(data))
			header(func(h map[string]any) {
				for i := range h["matrices"].([]any) {
					if matrix(h, i)["name"] == name {
						matrix(h, i)["sha256"] = hex.EncodeToString(sum[:])
						var r, c int
						if _, err := fmt.Sscan(strings.Split(data, "\n")[1], &r, &c); err == nil {
							matrix(h, i)["rows"], matrix(h, i)["cols"] = r, c
						}
					}
				}
			})(fs)
		}
	}
	cases := []struct {
		name   string
		damage func(fs fstest.MapFS)
		want   string
	}{
		{"no header", func(fs fstest.MapFS) { delete(fs, HeaderFile) }, "model.json: no such file (not a saved model)"},
		{"not JSON", func(fs fstest.MapFS) { fs[HeaderFile] = &fstest.MapFile{Data: []byte("{")} }, "model.json: not a model header: unexpected EOF"},
		{"unknown field", header(func(h map[string]any) { h["checksum"] = "x" }), `model.json: not a model header: json: unknown field "checksum"`},
		{"format", header(func(h map[string]any) { h["format"] = "topicmf-export/1" }), `model.json: format "topicmf-export/1", want "topicmf-model"`},
		{"newer version", header(func(h map[string]any) { h["version"] = 2 }), "model.json: version 2 is newer than this topicmf reads (1); use a newer topicmf"},
		{"older version", header(func(h map[string]any) { h["version"] = 0 }), "model.json: version 0, want 1"},
		{"unknown family", header(func(h map[string]any) { h["family"] = "ldaa" }), `model.json: unknown family "ldaa" (topicmf models lists the families)`},
		{"bad parameter", header(func(h map[string]any) { h["params"].(map[string]any)["beta"] = "-1" }), `model.json: params: family lda: parameter beta = "-1"`},
		{"unknown parameter", header(func(h map[string]any) { h["params"].(map[string]any)["gamma"] = "1" }), `model.json: params: family lda: unknown parameter "gamma"`},
		{"path in a file name", header(func(h map[string]any) { matrix(h, 0)["file"] = "../phi.mtx" }), `model.json: matrix "phi": file "../phi.mtx", want "phi.mtx"`},
		{"matrix listed twice", header(func(h map[string]any) { matrix(h, 1)["name"] = "phi"; matrix(h, 1)["file"] = "phi.mtx" }), `model.json: matrix "phi" listed twice`},
		{"bad checksum form", header(func(h map[string]any) { matrix(h, 0)["sha256"] = "abc" }), `model.json: matrix "phi": sha256 "abc", want 64 hexadecimal digits`},
		{"missing file", func(fs fstest.MapFS) { delete(fs, "theta.mtx") }, "theta.mtx: missing (listed in model.json)"},
		{"changed file", func(fs fstest.MapFS) {
			d := append([]byte(nil), fs["phi.mtx"].Data...)
			d[len(d)-2]++
			fs["phi.mtx"] = &fstest.MapFile{Data: d}
		}, "phi.mtx: SHA-256 "},
		{"shape against the header", header(func(h map[string]any) { matrix(h, 0)["rows"] = 61 }), "phi.mtx: 60×3, but model.json says 61×3"},
		{"not finite", rehash("theta", "%%MatrixMarket matrix array real general\n1 1\nNaN\n"), "theta.mtx: matrix market: line 3: "},
		{"shapes disagree", rehash("theta", "%%MatrixMarket matrix array real general\n1 2\n0.5\n0.5\n"), `model.json: lda: saved matrix "theta" is 1×2, want 1×3`},
		{"matrix missing from the header", header(func(h map[string]any) { h["matrices"] = h["matrices"].([]any)[:1] }), `model.json: lda: saved model has no matrix "theta" (has [phi])`},
	}
	for _, c := range cases {
		fs := fstest.MapFS{}
		for name, f := range good {
			fs[name] = &fstest.MapFile{Data: append([]byte(nil), f.Data...)}
		}
		c.damage(fs)
		_, _, err := Read(fs)
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%s: err = %v\nwant %s…", c.name, err, c.want)
			continue
		}
		fuzzcheck.OneLine(t, err)
	}
	if _, _, err := Read(good); err != nil {
		t.Errorf("the undamaged model: %v", err)
	}
}

// TestLoadErrorsAreShort: a header holding long names or values (edited,
// or not a model header at all) gives an error of one line of at most
// maxErrorLen characters that names the file and the problem and quotes
// at most maxQuoted characters of what it read. Before, the error quoted
// the whole value (and an unknown family listed every family).
func TestLoadErrorsAreShort(t *testing.T) {
	const maxErrorLen = 200
	_, good := saved(t, ldaMethod())
	long := strings.Repeat("x", 300)
	cases := []struct {
		name string
		edit func(h map[string]any)
		want string
	}{
		{"family", func(h map[string]any) { h["family"] = long }, `model.json: unknown family "xxx`},
		{"parameter value", func(h map[string]any) { h["params"].(map[string]any)["beta"] = long }, `model.json: params: "beta" = "xxx`},
		{"parameter key", func(h map[string]any) { h["params"].(map[string]any)[long] = "1" }, `model.json: params: "xxx`},
		{"unknown field", func(h map[string]any) { h[long] = "1" }, `model.json: not a model header: json: unknown field "xxx`},
		{"format", func(h map[string]any) { h["format"] = long }, `model.json: format "xxx`},
		{"matrix name", func(h map[string]any) { h["matrices"].([]any)[0].(map[string]any)["name"] = long }, `model.json: matrix 1: name "xxx`},
		{"matrix file", func(h map[string]any) { h["matrices"].([]any)[0].(map[string]any)["file"] = long }, `model.json: matrix "phi": file "xxx`},
		{"checksum", func(h map[string]any) { h["matrices"].([]any)[0].(map[string]any)["sha256"] = long }, `model.json: matrix "phi": sha256 "xxx`},
		{"vector name", func(h map[string]any) { h["vectors"] = map[string]any{long: []float64{1}} }, `model.json: vector name "xxx`},
	}
	for _, c := range cases {
		fs := fstest.MapFS{}
		for name, f := range good {
			fs[name] = &fstest.MapFile{Data: append([]byte(nil), f.Data...)}
		}
		var h map[string]any
		if err := json.Unmarshal(fs[HeaderFile].Data, &h); err != nil {
			t.Fatal(err)
		}
		c.edit(h)
		b, _ := json.Marshal(h)
		fs[HeaderFile] = &fstest.MapFile{Data: b}
		_, _, err := Read(fs)
		switch {
		case err == nil:
			t.Errorf("%s: read", c.name)
		case !strings.HasPrefix(err.Error(), c.want):
			t.Errorf("%s: err = %v\nwant %s…", c.name, err, c.want)
		case utf8.RuneCountInString(err.Error()) > maxErrorLen || strings.Contains(err.Error(), long[:maxQuoted+1]):
			t.Errorf("%s: %d characters, want ≤ %d quoting ≤ %d of the value: %v", c.name, utf8.RuneCountInString(err.Error()), maxErrorLen, maxQuoted, err)
		}
		fuzzcheck.OneLine(t, err)
	}
}

// setEntry writes value over the q-th entry (column by column, 0-based)
// of the matrix file name.mtx in fsys and updates its SHA-256 in the
// header, so that only the checks after the checksum can catch it.
func setEntry(t *testing.T, fsys fstest.MapFS, name string, q int, value string) {
	t.Helper()
	lines := strings.Split(string(fsys[name+".mtx"].Data), "\n")
	lines[2+q] = value
	data := []byte(strings.Join(lines, "\n"))
	fsys[name+".mtx"] = &fstest.MapFile{Data: data}
	var h Header
	if err := json.Unmarshal(fsys[HeaderFile].Data, &h); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	for i := range h.Matrices {
		if h.Matrices[i].Name == name {
			h.Matrices[i].SHA256 = hex.EncodeToString(sum[:])
		}
	}
	b, _ := json.Marshal(h)
	fsys[HeaderFile] = &fstest.MapFile{Data: b}
}

// TestLoadRefusesNegativeFactors: a saved model of a family whose factors
// are non-negative by definition (the NMF families, the probabilities of
// PLSI and LDA, JTD's B and S) with one entry made negative (its checksum
// updated) is refused in one line naming the matrix file and the entry, 1-based as
// the file numbers it; LSI's and RLSI's factors may be negative and load.
// Before, the negative entry was loaded.
func TestLoadRefusesNegativeFactors(t *testing.T) {
	c := factortest.Corpus(t, 60, 80, 3, 1)
	c.ClassNames = []string{"a", "b"}
	c.Labels = make([]int, c.Docs())
	for j := range c.Labels {
		c.Labels[j] = j % 2
	}
	cases := []struct {
		family string
		params catalog.Params
		matrix string // the matrix damaged
		who    string // the family in the message ("" when it loads)
	}{
		{"nmf", catalog.Params{"k": "3", "iters": "5"}, "u", "nmf"},
		{"nmfe", catalog.Params{"k": "3", "iters": "5"}, "v", "nmfe"},
		{"nmfi", catalog.Params{"k": "3", "iters": "5"}, "u", "nmfi"},
		{"nmf-anls", catalog.Params{"k": "3", "iters": "3"}, "v", "nmf-anls"},
		{"snmf", catalog.Params{"k": "3", "iters": "3"}, "u", "snmf"},
		{"graphnmf", catalog.Params{"k": "3", "iters": "5"}, "v", "graphnmf"},
		{"symnmf", catalog.Params{"k": "3", "iters": "5"}, "p", "symnmf"},
		{"tnmf", catalog.Params{"k": "3", "iters": "5"}, "g", "tnmf"},
		{"plsi", catalog.Params{"k": "3", "iters": "5"}, "phi", "plsi"},
		{"lda", catalog.Params{"k": "3", "iters": "20"}, "theta", "lda"},
		{"onlinelda", catalog.Params{"k": "3"}, "lambda", "onlinelda"},
		{"jtd", catalog.Params{"k": "3"}, "s", "jtd"},
		{"groupnmf", catalog.Params{"ks": "2", "kc": "1", "iters": "5"}, "u", "groupnmf"},
		{"gnmfnc", catalog.Params{"ks": "2", "kp": "1", "iters": "5"}, "v", "gnmfnc"},
		{"cnmf", catalog.Params{"kc": "2", "iters": "5"}, "class1_u", "nmf"},
		{"lsi", catalog.Params{"k": "3"}, "u", ""},
		{"rlsi", catalog.Params{"k": "3", "iters": "3"}, "u", ""},
		{"grouprlsi", catalog.Params{"ks": "2", "kc": "1", "iters": "3"}, "v", ""},
	}
	for _, tc := range cases {
		method, err := catalog.New(tc.family, tc.params)
		if err != nil {
			t.Errorf("%s: %v", tc.family, err)
			continue
		}
		m, _, err := method.Fit(context.Background(), c, engine.NewRecorder())
		if err != nil {
			t.Errorf("%s: fit: %v", tc.family, err)
			continue
		}
		files := memFiles{}
		if err := Write(files, m); err != nil {
			t.Fatal(err)
		}
		fsys := fstest.MapFS(files)
		var rows int
		if _, err := fmt.Sscan(strings.Split(string(fsys[tc.matrix+".mtx"].Data), "\n")[1], &rows); err != nil {
			t.Fatalf("%s: %s.mtx: %v", tc.family, tc.matrix, err)
		}
		q := rows + 1 // row 2, column 2
		setEntry(t, fsys, tc.matrix, q, "-0.5")
		_, _, err = Read(fsys)
		if tc.who == "" {
			if err != nil {
				t.Errorf("%s: a negative entry of %s is refused: %v", tc.family, tc.matrix, err)
			}
			continue
		}
		want := fmt.Sprintf(`%s: saved matrix %q: row 2, column 2 = -0.5, want ≥ 0`, tc.who, tc.matrix)
		if err == nil || !strings.HasPrefix(err.Error(), tc.matrix+".mtx: ") || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v\nwant %s.mtx: …%s…", tc.family, err, tc.matrix, want)
		}
		fuzzcheck.OneLine(t, err)
	}
}

// FuzzRead reads arbitrary files as a saved model: model.json, and two
// matrix files under the names the seeds' families give them (u, v for
// NMF; phi, theta for LDA). Each input is read twice: as given, and with
// the header's checksums and shapes made to match the files, so that the
// fuzzer reaches the matrix reader and the family's Load. Read must return
// within the bound, never panic, and fail in one line; a model it returns
// has factors of the shapes the header declares. Seeds: saved NMF and LDA
// models fitted here.
func FuzzRead(f *testing.F) {
	for _, m := range []engine.Method{nmf.Options{K: 2, Stopping: engine.Stopping{MaxIter: 5}}, ldaMethod()} {
		_, fs := saved(f, m)
		var h Header
		if err := json.Unmarshal(fs[HeaderFile].Data, &h); err != nil {
			f.Fatal(err)
		}
		f.Add(fs[HeaderFile].Data, fs[h.Matrices[0].File].Data, fs[h.Matrices[1].File].Data)
	}
	f.Fuzz(func(t *testing.T, header, a, b []byte) {
		fs := fstest.MapFS{HeaderFile: {Data: header}}
		for _, pair := range [][2]string{{"u", "v"}, {"phi", "theta"}} {
			fs[pair[0]+".mtx"], fs[pair[1]+".mtx"] = &fstest.MapFile{Data: a}, &fstest.MapFile{Data: b}
		}
		check := func(fs fstest.MapFS) {
			var m engine.Model
			var err error
			fuzzcheck.Within(t, func() { m, _, err = Read(fs) })
			if err != nil {
				fuzzcheck.OneLine(t, err)
				return
			}
			if m.TermTopics() == nil || m.DocTopics() == nil {
				t.Fatal("loaded model without factors")
			}
		}
		check(fs)
		var h Header
		if json.Unmarshal(header, &h) != nil {
			return
		}
		for i, mf := range h.Matrices {
			if file, ok := fs[mf.File]; ok {
				sum := sha256.Sum256(file.Data)
				h.Matrices[i].SHA256 = hex.EncodeToString(sum[:])
			}
		}
		fixed, err := json.Marshal(h)
		if err != nil {
			return
		}
		fs[HeaderFile] = &fstest.MapFile{Data: fixed}
		check(fs)
	})
}

// TestStoppingSaved: a fold-in that applies the fit's stopping rule gets
// the whole rule back, EvalEvery included, though the family does not
// declare it as a parameter: NMF fitted with EvalEvery = 3 and a tolerance
// that stops documents early folds in with the same bits once loaded.
func TestStoppingSaved(t *testing.T) {
	m, files := saved(t, nmf.Options{K: 3, Stopping: engine.Stopping{MaxIter: 40, RelTol: 1e-3, EvalEvery: 3}})
	loaded, _, err := Read(files)
	if err != nil {
		t.Fatal(err)
	}
	x := factortest.Corpus(t, 60, 30, 3, 2).DT
	want, err := m.FoldIn(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	got, err := loaded.FoldIn(context.Background(), x)
	if err != nil {
		t.Fatal(err)
	}
	if d := factortest.DiffBits(want, got); d != "" {
		t.Errorf("fold-in of the loaded model differs: %s", d)
	}
}
