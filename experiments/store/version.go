package store

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
)

// ModulePath is the module whose code version identifies runs.
const ModulePath = "github.com/topicmf/topicmf"

// Sources of the revision and dirty flag (CodeVersion.Source).
const (
	SourceBuildInfo = "buildinfo" // vcs.revision / vcs.modified stamped by go build
	SourceGit       = "git"       // git rev-parse / git status in the module root
	SourceNone      = "none"      // neither: revision unknown
)

// CodeVersion identifies the code that computed a run. See the package
// documentation for the policy.
type CodeVersion struct {
	Module   string `json:"module"`
	Version  string `json:"version"`  // module version, "(devel)" for a work tree
	Revision string `json:"revision"` // VCS revision, "unknown" when Source is "none"
	Dirty    bool   `json:"dirty"`
	// DirtyDigest identifies the uncommitted state when Dirty (see the
	// package documentation); empty when clean.
	DirtyDigest string `json:"dirty_digest,omitempty"`
	Source      string `json:"source"`
	// Experiment is the experiment's own Version string, bumped by hand
	// when what its task computes changes.
	Experiment string `json:"experiment_version,omitempty"`
	// Note explains a degraded detection (e.g. why git could not be used).
	Note string `json:"note,omitempty"`
}

// Key is the text that enters the run id.
func (c CodeVersion) Key() string {
	s := c.Module + "@" + c.Version + " rev " + c.Revision
	if c.Dirty {
		s += " dirty " + c.DirtyDigest
	}
	return s + " experiment " + c.Experiment
}

// WithExperiment returns c with the experiment Version set.
func (c CodeVersion) WithExperiment(v string) CodeVersion {
	c.Experiment = v
	return c
}

var (
	codeMu    sync.Mutex
	codeCache = map[string]CodeVersion{}
)

// DetectCode returns the code version of the running process, computed once
// per process for each set of excluded directories. exclude names
// directories (e.g. a results root) whose contents do not count as code.
func DetectCode(exclude ...string) CodeVersion {
	key := strings.Join(exclude, "\x00")
	codeMu.Lock()
	defer codeMu.Unlock()
	if cv, ok := codeCache[key]; ok {
		return cv
	}
	cv := detectCode(exclude)
	codeCache[key] = cv
	return cv
}

func detectCode(exclude []string) CodeVersion {
	cv := CodeVersion{Module: ModulePath, Version: "(devel)", Revision: "unknown", Source: SourceNone}
	bi, ok := debug.ReadBuildInfo()
	if ok {
		if bi.Main.Version != "" {
			cv.Version = bi.Main.Version
		}
		var rev, modified string
		for _, s := range bi.Settings {
			switch s.Key {
			case "vcs.revision":
				rev = s.Value
			case "vcs.modified":
				modified = s.Value
			}
		}
		if rev != "" {
			cv.Revision, cv.Source = rev, SourceBuildInfo
			if modified == "true" {
				cv.Dirty = true
				if d, err := executableDigest(); err == nil {
					cv.DirtyDigest = "exe:" + d
				} else {
					cv.DirtyDigest = "unknown"
					cv.Note = "dirty build and executable unreadable: " + err.Error()
				}
			}
			return cv
		}
	}
	root := ModuleRoot()
	if root == "" {
		cv.Note = "no vcs.* in build info and module root not found"
		return cv
	}
	return gitVersion(cv, root, exclude)
}

// gitVersion fills the revision and dirty state of cv from the git work
// tree at root.
func gitVersion(cv CodeVersion, root string, exclude []string) CodeVersion {
	rev, err := git(root, "rev-parse", "HEAD")
	if err != nil {
		cv.Note = "no vcs.* in build info; " + err.Error()
		return cv
	}
	cv.Revision, cv.Source = strings.TrimSpace(string(rev)), SourceGit
	spec := pathspec(root, exclude)
	status, err := git(root, append([]string{"status", "--porcelain", "--untracked-files=all", "--"}, spec...)...)
	if err != nil {
		cv.Dirty, cv.DirtyDigest = true, "unknown"
		cv.Note = err.Error()
		return cv
	}
	if len(bytes.TrimSpace(status)) == 0 {
		return cv
	}
	cv.Dirty = true
	d, err := treeDigest(root, spec)
	if err != nil {
		cv.DirtyDigest = "unknown"
		cv.Note = err.Error()
		return cv
	}
	cv.DirtyDigest = "git:" + d
	return cv
}

// pathspec selects the files whose changes count as code changes: all but
// Markdown, notebooks/, results/ and the excluded directories inside root.
func pathspec(root string, exclude []string) []string {
	spec := []string{".", ":(exclude)*.md", ":(exclude)notebooks", ":(exclude)results"}
	rroot, err := filepath.EvalSymlinks(root)
	if err != nil {
		rroot = root
	}
	for _, dir := range exclude {
		abs, err := filepath.Abs(dir)
		if err != nil {
			continue
		}
		if r, err := filepath.EvalSymlinks(abs); err == nil {
			abs = r
		}
		rel, err := filepath.Rel(rroot, abs)
		if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
			continue
		}
		spec = append(spec, ":(exclude)"+filepath.ToSlash(rel))
	}
	return spec
}

// treeDigest hashes the uncommitted changes under spec: the binary diff of
// tracked files against HEAD, then each untracked file's name and contents.
func treeDigest(root string, spec []string) (string, error) {
	h := sha256.New()
	diff, err := git(root, append([]string{"diff", "HEAD", "--binary", "--no-color", "--no-ext-diff", "--"}, spec...)...)
	if err != nil {
		return "", err
	}
	h.Write(diff)
	others, err := git(root, append([]string{"ls-files", "--others", "--exclude-standard", "-z", "--"}, spec...)...)
	if err != nil {
		return "", err
	}
	for _, name := range bytes.Split(others, []byte{0}) {
		if len(name) == 0 {
			continue
		}
		fmt.Fprintf(h, "\x00untracked %s\x00", name)
		f, err := os.Open(filepath.Join(root, string(name)))
		if err != nil {
			fmt.Fprintf(h, "unreadable")
			continue
		}
		_, err = io.Copy(h, f)
		f.Close()
		if err != nil {
			return "", fmt.Errorf("hashing untracked %s: %w", name, err)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func git(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("git %s in %s: %v: %s", args[0], dir, err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

func executableDigest() (string, error) {
	exe, err := os.Executable()
	if err != nil {
		return "", err
	}
	f, err := os.Open(exe)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ModuleRoot returns the directory of the go.mod declaring ModulePath: first
// above the source file of this package as compiled (a work-tree build),
// then above the working directory. It returns "" when neither has it.
func ModuleRoot() string {
	if _, file, _, ok := runtime.Caller(0); ok {
		if r := findModule(filepath.Dir(file)); r != "" {
			return r
		}
	}
	if wd, err := os.Getwd(); err == nil {
		return findModule(wd)
	}
	return ""
}

func findModule(dir string) string {
	for {
		if isModuleRoot(filepath.Join(dir, "go.mod")) {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func isModuleRoot(gomod string) bool {
	f, err := os.Open(gomod)
	if err != nil {
		return false
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if strings.HasPrefix(line, "module ") {
			return strings.Trim(strings.TrimSpace(strings.TrimPrefix(line, "module ")), `"`) == ModulePath
		}
	}
	return false
}
