package experiments

import (
	"fmt"
	"path"
	"sort"
	"strings"
	"sync"
)

// Registry holds experiments by ID.
type Registry struct {
	mu   sync.Mutex
	byID map[string]*Experiment
}

// NewRegistry returns an empty registry.
func NewRegistry() *Registry { return &Registry{byID: map[string]*Experiment{}} }

// Register adds e after checking its shape (ID form, title, task, table
// and figure names, grid). Model names and grid parameters are checked
// against the catalog when jobs are expanded.
func (r *Registry) Register(e *Experiment) error {
	if e == nil {
		return fmt.Errorf("register: nil experiment")
	}
	if err := e.validateShape(); err != nil {
		return err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, dup := r.byID[e.ID]; dup {
		return fmt.Errorf("experiment %s registered twice", e.ID)
	}
	r.byID[e.ID] = e
	return nil
}

// All returns every experiment sorted by ID.
func (r *Registry) All() []*Experiment {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]*Experiment, 0, len(r.byID))
	for _, e := range r.byID {
		out = append(out, e)
	}
	sort.Slice(out, func(a, b int) bool { return out[a].ID < out[b].ID })
	return out
}

// Get returns the experiments whose ID matches pattern: an exact ID, or a
// path.Match glob such as "rlsi2011/*" or "*/figure6"; a bare paper name
// ("rlsi2011") means all of its experiments. It is an error when nothing
// matches or the pattern is malformed.
func (r *Registry) Get(pattern string) ([]*Experiment, error) {
	if _, err := path.Match(pattern, ""); err != nil {
		return nil, fmt.Errorf("experiment pattern %q: %v", pattern, err)
	}
	var out []*Experiment
	for _, e := range r.All() {
		ok, _ := path.Match(pattern, e.ID)
		if ok || (!strings.Contains(pattern, "/") && e.PaperKey() == pattern) {
			out = append(out, e)
		}
	}
	if len(out) == 0 {
		var ids []string
		for _, e := range r.All() {
			ids = append(ids, e.ID)
		}
		return nil, fmt.Errorf("no experiment matches %q (known: %s)", pattern, strings.Join(ids, ", "))
	}
	return out, nil
}

// defaultRegistry is the process-wide registry that per-paper packages
// register into from their init functions (import experiments/all to get
// them all).
var defaultRegistry = NewRegistry()

// Register adds e to the default registry; it panics on an invalid or
// duplicate experiment, which is a programming error in a spec package.
func Register(e *Experiment) {
	if err := defaultRegistry.Register(e); err != nil {
		panic(err)
	}
}

// All returns every experiment of the default registry.
func All() []*Experiment { return defaultRegistry.All() }

// Get looks up a pattern in the default registry (see Registry.Get).
func Get(pattern string) ([]*Experiment, error) { return defaultRegistry.Get(pattern) }
