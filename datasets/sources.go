package datasets

import (
	"fmt"
	"sort"
	"strings"
)

// File is one file of a source, as stored below the data directory.
type File struct {
	Path   string // relative to the data directory, e.g. "cranfield/cran.tar.gz"
	URL    string // canonical download location
	SHA256 string // hex digest of the exact bytes read by the reader
	Size   int64  // bytes
	// Member, when set, says URL serves an archive (.tar, .tar.gz or .zip,
	// recognised by content) and this file is its member of that name
	// (matched exactly or as the path's last elements), extracted byte for
	// byte. A mirror (see Fetch) serves the extracted file at Path instead.
	Member string
}

// Source is one named collection: its files and the reader that turns them
// into a Collection. Several sources may share files (the four STTM sets).
type Source struct {
	Name        string
	Description string
	Files       []File
	// Read parses the collection from the data directory dataDir.
	Read func(dataDir string) (*Collection, error)
}

// sourceGroups are the per-format tables, each defined beside its readers.
func sourceGroups() [][]Source {
	return [][]Source{
		irSources(),   // sources_ir.go
		textSources(), // sources_text.go
		stopSources(), // sources_stopwords.go
	}
}

// Sources returns every known source, sorted by name.
func Sources() []Source {
	var all []Source
	for _, g := range sourceGroups() {
		all = append(all, g...)
	}
	sort.Slice(all, func(a, b int) bool { return all[a].Name < all[b].Name })
	return all
}

// Lookup returns the named source.
func Lookup(name string) (Source, error) {
	var names []string
	for _, s := range Sources() {
		if s.Name == name {
			return s, nil
		}
		names = append(names, s.Name)
	}
	return Source{}, fmt.Errorf("unknown data set %q (known: %s)", name, strings.Join(names, ", "))
}
