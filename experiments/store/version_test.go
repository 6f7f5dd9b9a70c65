package store

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func runGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir, "-c", "user.email=t@example.org", "-c", "user.name=t", "-c", "commit.gpgsign=false"}, args...)...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// TestGitVersion checks the dirty policy on a scratch repository: code
// changes make the tree dirty with a digest that follows the content;
// Markdown, results/ and an excluded results root do not count.
func TestGitVersion(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	root := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(root, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("go.mod", "module "+ModulePath+"\n")
	write("a.go", "package a\n")
	runGit(t, root, "init", "-q")
	runGit(t, root, "add", ".")
	runGit(t, root, "commit", "-q", "-m", "init")
	base := CodeVersion{Module: ModulePath, Version: "(devel)", Revision: "unknown", Source: SourceNone}
	clean := gitVersion(base, root, []string{filepath.Join(root, "out")})
	if clean.Source != SourceGit || len(clean.Revision) != 40 || clean.Dirty {
		t.Fatalf("clean: %+v", clean)
	}
	write("README.md", "docs\n")
	write("results/x/REPORT.md", "r\n")
	write("results/runs/f.csv", "1\n")
	write("out/runs/f.csv", "1\n")
	write("notebooks/n.ipynb", "{}\n")
	if v := gitVersion(base, root, []string{filepath.Join(root, "out")}); v.Dirty {
		t.Fatalf("non-code changes made the tree dirty: %+v", v)
	}
	write("a.go", "package a\n\nvar X = 1\n")
	d1 := gitVersion(base, root, nil)
	if !d1.Dirty || !strings.HasPrefix(d1.DirtyDigest, "git:") {
		t.Fatalf("modified a.go: %+v", d1)
	}
	write("a.go", "package a\n\nvar X = 2\n")
	d2 := gitVersion(base, root, nil)
	if d2.DirtyDigest == d1.DirtyDigest {
		t.Fatal("digest did not follow the change")
	}
	write("a.go", "package a\n")
	write("b.go", "package a\n")
	d3 := gitVersion(base, root, nil)
	if !d3.Dirty {
		t.Fatal("untracked .go file not dirty")
	}
	write("b.go", "package a // changed\n")
	if d4 := gitVersion(base, root, nil); d4.DirtyDigest == d3.DirtyDigest {
		t.Fatal("untracked content change kept the digest")
	}
	if k1, k2 := d1.Key(), clean.Key(); k1 == k2 {
		t.Fatal("dirty and clean keys equal")
	}

	nogit := gitVersion(base, t.TempDir(), nil)
	if nogit.Source != SourceNone || nogit.Revision != "unknown" || nogit.Note == "" {
		t.Fatalf("outside git: %+v", nogit)
	}
}

// TestDetectCodeHere: a test binary carries no vcs.* (and this machine sets
// -buildvcs=false), so the revision comes from git in the module root.
func TestDetectCodeHere(t *testing.T) {
	root := ModuleRoot()
	if root == "" {
		t.Skip("module root not found")
	}
	cv := DetectCode()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git not installed")
	}
	if _, err := os.Stat(filepath.Join(root, ".git")); err != nil {
		t.Skip("module root is not a git work tree")
	}
	if cv.Source != SourceGit && cv.Source != SourceBuildInfo {
		t.Fatalf("DetectCode = %+v", cv)
	}
	if cv2 := DetectCode(); cv2 != cv {
		t.Fatal("DetectCode not memoised")
	}
}
