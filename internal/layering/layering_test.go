package layering

import (
	"bytes"
	"encoding/json"
	"errors"
	"go/parser"
	"go/token"
	"io"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// module is the import path of the module.
const module = "github.com/topicmf/topicmf"

// layer is a set of packages (a top-level directory of the module) and
// the top-level directories its packages may import, itself included.
type layer struct {
	dir string
	may []string
}

// layers, top to bottom. A package of the module outside every listed
// directory fails the test, so a new top-level directory must be placed.
var layers = []layer{
	{"cmd", []string{"cmd", "experiments", "metrics", "datasets", "engine", "internal"}},
	{"bench", []string{"bench", "experiments", "metrics", "datasets", "engine", "internal"}},
	{"notebook", []string{"notebook", "experiments", "metrics", "datasets", "engine", "internal"}},
	{"experiments", []string{"experiments", "metrics", "datasets", "engine", "internal"}},
	{"metrics", []string{"metrics", "engine", "internal"}},
	{"datasets", []string{"datasets", "engine", "internal"}},
	// internal/ holds leaf helpers (memo, fuzzcheck, realdata) that import
	// nothing else of the module, so it is the lowest layer.
	{"engine", []string{"engine", "internal"}},
	{"internal", []string{"internal"}},
}

// coreAllowed are the packages of the module that the core package engine
// may depend on, directly or not.
var coreAllowed = []string{module + "/engine/sparse", module + "/engine/dense", module + "/engine/parallel"}

// dataframes are import path prefixes of dataframe libraries, which belong
// above the engine (presentation), never in its core.
var dataframes = []string{
	"github.com/go-gota/gota",
	"github.com/rocketlaunchr/dataframe-go",
	"github.com/kfultz07/go-dataframe",
	"github.com/apache/arrow/go",
}

// pkg is the part of `go list -json` the test reads.
type pkg struct {
	ImportPath, Dir                    string
	GoFiles                            []string
	Imports, TestImports, XTestImports []string
}

// list runs go list -json with args in the module and decodes its output.
func list(t *testing.T, args ...string) []pkg {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("the go command is not on PATH: %v", err)
	}
	cmd := exec.Command(goCmd, append([]string{"list", "-json"}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list %s: %v\n%s", strings.Join(args, " "), err, stderr.String())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for {
		var p pkg
		if err := dec.Decode(&p); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("decoding go list output: %v", err)
		}
		pkgs = append(pkgs, p)
	}
	if len(pkgs) == 0 {
		t.Fatalf("go list %s listed no package", strings.Join(args, " "))
	}
	return pkgs
}

// topDir returns the top-level directory of a package of the module, and
// whether path is one.
func topDir(path string) (string, bool) {
	rel, ok := strings.CutPrefix(path, module+"/")
	if !ok {
		return "", false
	}
	dir, _, _ := strings.Cut(rel, "/")
	return dir, true
}

// violations returns one line per import of a package of the module that
// its layer does not allow, naming the importer, the imported package and
// whether the import is in a test file.
func violations(pkgs []pkg) []string {
	var bad []string
	for _, p := range pkgs {
		from, ok := topDir(p.ImportPath)
		if !ok {
			continue
		}
		i := slices.IndexFunc(layers, func(l layer) bool { return l.dir == from })
		if i < 0 {
			bad = append(bad, p.ImportPath+": its top-level directory "+from+"/ has no layer in the layering test")
			continue
		}
		for _, imp := range []struct {
			kind  string
			paths []string
		}{{"", p.Imports}, {" (test)", p.TestImports}, {" (external test)", p.XTestImports}} {
			for _, q := range imp.paths {
				to, ok := topDir(q)
				if ok && !slices.Contains(layers[i].may, to) {
					bad = append(bad, p.ImportPath+imp.kind+" imports "+q+": "+from+"/ may import only "+strings.Join(layers[i].may, ", "))
				}
			}
		}
	}
	return bad
}

func TestLayering(t *testing.T) {
	for _, v := range violations(list(t, module+"/...")) {
		t.Error(v)
	}
}

// TestEngineCore: the core package engine depends on the engine's leaf
// kernels only, directly or not.
func TestEngineCore(t *testing.T) {
	for _, p := range list(t, "-deps", module+"/engine") {
		path := p.ImportPath
		if _, ours := topDir(path); ours && path != module+"/engine" && !slices.Contains(coreAllowed, path) {
			t.Errorf("package engine depends on %s: it may depend only on %s", path, strings.Join(coreAllowed, ", "))
		}
	}
}

// TestEngineCoreNoDataframe: the core package engine depends on no
// dataframe library, directly or not.
func TestEngineCoreNoDataframe(t *testing.T) {
	var found []string
	for _, p := range list(t, "-deps", module+"/engine") {
		if isDataframe(p.ImportPath) {
			found = append(found, p.ImportPath)
		}
	}
	if len(found) == 0 {
		return
	}
	// engine/recorder.go converts the trace to a gota dataframe; issue 9
	// moves that conversion above the engine, a change not yet merged into
	// this branch. Until it is, skip when that file alone brings the
	// dependency in; any other file or package that does fails.
	if importers := dataframeImporters(t); slices.Equal(importers, []string{"engine/recorder.go"}) {
		t.Skipf("package engine depends on %s through engine/recorder.go alone (its dataframe conversion is being moved above the engine)", strings.Join(found, ", "))
	}
	t.Errorf("package engine depends on the dataframe libraries %s (imported by %s)", strings.Join(found, ", "), strings.Join(dataframeImporters(t), ", "))
}

func isDataframe(path string) bool {
	for _, df := range dataframes {
		if path == df || strings.HasPrefix(path, df+"/") {
			return true
		}
	}
	return false
}

// dataframeImporters returns the files of the module (relative to the
// module, as "engine/recorder.go") that import a dataframe library among
// the Go files of package engine and of the module's packages it depends
// on, test files excluded.
func dataframeImporters(t *testing.T) []string {
	t.Helper()
	var files []string
	for _, p := range list(t, "-deps", module+"/engine") {
		dir, ours := topDir(p.ImportPath)
		if !ours {
			continue
		}
		rel := strings.TrimPrefix(p.ImportPath, module+"/")
		for _, name := range p.GoFiles {
			f, err := parser.ParseFile(token.NewFileSet(), filepath.Join(p.Dir, name), nil, parser.ImportsOnly)
			if err != nil {
				t.Fatalf("%s (%s/): %v", name, dir, err)
			}
			for _, imp := range f.Imports {
				if path, err := strconv.Unquote(imp.Path.Value); err == nil && isDataframe(path) {
					files = append(files, rel+"/"+name)
					break
				}
			}
		}
	}
	slices.Sort(files)
	return files
}

// TestViolationsDetected: the check reports an upward import, one in a
// test file, and a package outside every layer, and accepts a downward one.
func TestViolationsDetected(t *testing.T) {
	pkgs := []pkg{
		{ImportPath: module + "/engine/rank", Imports: []string{"fmt", module + "/engine/sparse"}, TestImports: []string{module + "/datasets/text"}},
		{ImportPath: module + "/internal/memo", Imports: []string{module + "/engine"}},
		{ImportPath: module + "/experiments/x", Imports: []string{module + "/engine", module + "/datasets", module + "/metrics/ir"}},
		{ImportPath: module + "/newdir/p"},
	}
	got := violations(pkgs)
	want := []string{
		module + "/engine/rank (test) imports " + module + "/datasets/text: engine/ may import only engine, internal",
		module + "/internal/memo imports " + module + "/engine: internal/ may import only internal",
		module + "/newdir/p: its top-level directory newdir/ has no layer in the layering test",
	}
	if !slices.Equal(got, want) {
		t.Errorf("violations:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
