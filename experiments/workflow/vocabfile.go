package workflow

import "fmt"

// checkUniqueTerms refuses a vocabulary (read from path, one term per
// line, no empty line, so term i is on line i+1) that names a term twice:
// two rows of U would share a name, and a topic's top terms, transform's
// weighting and rank's query terms would each pick one of them silently.
func checkUniqueTerms(path string, vocab []string) error {
	line := make(map[string]int, len(vocab))
	for i, t := range vocab {
		if first, dup := line[t]; dup {
			return fmt.Errorf("%s: line %d: term %q is already on line %d; a vocabulary names each term once", path, i+1, t, first)
		}
		line[t] = i + 1
	}
	return nil
}
