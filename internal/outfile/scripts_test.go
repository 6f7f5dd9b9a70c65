package outfile

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// writers are the shell and Python twins of Write, used by
// scripts/run-notebooks.sh --update and the bench reports, each as a
// command that copies (or writes) the text "new" to the path it is given.
var writers = map[string]func(repo, dst string) *exec.Cmd{
	"scripts/outfile.sh write_over": func(repo, dst string) *exec.Cmd {
		return exec.Command("bash", "-c", `. "$1/scripts/outfile.sh" && src=$(mktemp) && printf new >"$src" && write_over "$src" "$2"; rc=$?; rm -f "$src"; exit $rc`, "bash", repo, dst)
	},
	"bench/report.py write_output": func(repo, dst string) *exec.Cmd {
		return exec.Command("/usr/bin/python3", "-c", `import sys; sys.path.insert(0, sys.argv[1] + "/bench"); import report; report.write_output(sys.argv[2], "new")`, repo, dst)
	},
}

// TestScriptWritersFollowTheRules: the shell and Python writers write a
// symbolic link through to its target, write a FIFO to its reader, refuse
// a directory in one line, and replace a regular file keeping its mode
// (issue 23: run-notebooks.sh --update and bench/report.py replaced the
// path whatever it was, or wrote a notebook in place non-atomically).
func TestScriptWritersFollowTheRules(t *testing.T) {
	repo, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	for name, cmd := range writers {
		if _, err := exec.LookPath(cmd(repo, "").Path); err != nil {
			t.Logf("skipping %s: %v", name, err)
			continue
		}
		dir := t.TempDir()
		target := filepath.Join(dir, "target.md")
		os.WriteFile(target, []byte("old"), 0o600)
		link := filepath.Join(dir, "link.md")
		os.Symlink("target.md", link)
		if out, err := cmd(repo, link).CombinedOutput(); err != nil {
			t.Fatalf("%s through a link: %v\n%s", name, err, out)
		}
		if fi, err := os.Lstat(link); err != nil || fi.Mode()&fs.ModeSymlink == 0 {
			t.Errorf("%s: the link was replaced", name)
		}
		if b, _ := os.ReadFile(target); string(b) != "new" {
			t.Errorf("%s: the target holds %q", name, b)
		}
		if fi, _ := os.Stat(target); fi.Mode().Perm() != 0o600 {
			t.Errorf("%s: the target's mode is %v, want its old 0600", name, fi.Mode().Perm())
		}

		fifo := filepath.Join(dir, "fifo")
		if err := syscall.Mkfifo(fifo, 0o600); err != nil {
			t.Fatal(err)
		}
		got := make(chan string, 1)
		go func() {
			b, _ := os.ReadFile(fifo)
			got <- string(b)
		}()
		if out, err := cmd(repo, fifo).CombinedOutput(); err != nil {
			t.Fatalf("%s into a FIFO: %v\n%s", name, err, out)
		}
		select {
		case s := <-got:
			if s != "new" {
				t.Errorf("%s: the FIFO's reader got %q", name, s)
			}
		case <-time.After(30 * time.Second):
			t.Errorf("%s: the FIFO's reader got nothing", name)
		}
		if fi, err := os.Lstat(fifo); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
			t.Errorf("%s: the FIFO was replaced", name)
		}

		sub := filepath.Join(dir, "sub")
		os.Mkdir(sub, 0o755)
		out, err := cmd(repo, sub).CombinedOutput()
		if err == nil || strings.TrimSpace(string(out)) != sub+" is a directory, not a file" {
			t.Errorf("%s into a directory: %v %q", name, err, out)
		}
		ents, _ := os.ReadDir(dir)
		for _, e := range ents {
			if strings.HasPrefix(e.Name(), ".tmp-") {
				t.Errorf("%s: temporary file %s left behind", name, e.Name())
			}
		}
	}
}
