// Package linediff finds the first line where two texts differ, for the
// one-line messages of golden-text checks (topicmf report --check and the
// notebook checker).
package linediff

// First compares a and b line by line, a missing line reading as "", and
// returns the 1-based number of the first line that differs with the two
// lines there; ok is false when none differs.
func First(a, b []string) (line int, x, y string, ok bool) {
	for i := 0; i < max(len(a), len(b)); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return i + 1, x, y, true
		}
	}
	return 0, "", "", false
}
