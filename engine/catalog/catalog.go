// Package catalog names every model family so that front ends (the CLI,
// the experiment registry, notebooks) can build a configured engine.Method
// from a name and string parameters, e.g. "nmf" with {"k": "20"}.
//
// Each family is described in its own file of this package; the list below
// is the whole catalog.
package catalog

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/engine"
)

// Param documents one parameter of a family.
type Param struct {
	Key, Default, Doc string
}

// Family is one model family.
type Family struct {
	Name   string
	Doc    string  // one line: the algorithm and its citation
	Params []Param // every key New accepts
	New    func(p Params) (engine.Method, error)
}

// families lists every family; each entry is defined in its own file.
func families() []Family {
	return []Family{
		// Families add themselves here, one line each.
		rlsiFamily(),
		nmfFamily(),
		lsiFamily(),
		plsiFamily(),
		ldaFamily(),
		tnmfFamily(),
		nmfeFamily(),
		nmfiFamily(),
		graphnmfFamily(),
		symnmfFamily(),
		grouprlsiFamily(),
		crlsiFamily(),
		groupnmfFamily(),
		cnmfFamily(),
		jtdFamily(),
		onlineldaFamily(),
	}
}

// Families returns every family, sorted by name.
func Families() []Family {
	fs := append(families(), snmfFamilies()...)
	sort.Slice(fs, func(a, b int) bool { return fs[a].Name < fs[b].Name })
	return fs
}

// Lookup returns the family of the given name.
func Lookup(name string) (Family, error) {
	var names []string
	for _, f := range Families() {
		if f.Name == name {
			return f, nil
		}
		names = append(names, f.Name)
	}
	return Family{}, fmt.Errorf("unknown model %q (known: %s)", name, strings.Join(names, ", "))
}

// New builds the named family's Method from string parameters. Unknown keys
// are an error, so a typo never silently falls back to a default.
func New(name string, p Params) (engine.Method, error) {
	f, err := Lookup(name)
	if err != nil {
		return nil, err
	}
	known := map[string]bool{}
	for _, k := range f.Params {
		known[k.Key] = true
	}
	for _, k := range p.Keys() {
		if !known[k] {
			return nil, fmt.Errorf("model %s: unknown parameter %q", name, k)
		}
	}
	return f.New(p)
}

// Params are a family's parameters as strings, as written on a command line
// or in an experiment's grid.
type Params map[string]string

// Keys returns the keys, sorted.
func (p Params) Keys() []string {
	ks := make([]string, 0, len(p))
	for k := range p {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

// Int returns p[key] as an int, or def when absent.
func (p Params) Int(key string, def int) (int, error) {
	s, ok := p[key]
	if !ok {
		return def, nil
	}
	v, err := strconv.Atoi(strings.TrimSpace(s))
	if err != nil {
		return 0, fmt.Errorf("parameter %s = %q: want an integer", key, s)
	}
	return v, nil
}

// Uint64 returns p[key] as a uint64, or def when absent.
func (p Params) Uint64(key string, def uint64) (uint64, error) {
	s, ok := p[key]
	if !ok {
		return def, nil
	}
	v, err := strconv.ParseUint(strings.TrimSpace(s), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("parameter %s = %q: want a non-negative integer", key, s)
	}
	return v, nil
}

// Float returns p[key] as a float64, or def when absent.
func (p Params) Float(key string, def float64) (float64, error) {
	s, ok := p[key]
	if !ok {
		return def, nil
	}
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("parameter %s = %q: want a number", key, s)
	}
	return v, nil
}

// String returns p[key], or def when absent.
func (p Params) String(key, def string) string {
	if s, ok := p[key]; ok {
		return s
	}
	return def
}
