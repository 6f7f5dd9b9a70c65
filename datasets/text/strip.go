package text

import (
	"regexp"
	"slices"
	"strings"
)

// quoteLine matches the lines scikit-learn's strip_newsgroup_quoting drops:
// attribution lines ("... writes:", "In article ...") and quoted lines
// (starting with ">" or "|").
var quoteLine = regexp.MustCompile(`(writes in|writes:|wrote:|says:|said:|^In article|^Quoted from|^\||^>)`)

// StripPost removes the named parts ("headers", "footers", "quotes") of an
// e-mail or news post, in that order, with the rules of scikit-learn's
// fetch_20newsgroups(remove=...) (sklearn/datasets/_twenty_newsgroups.py):
//
//   - headers: everything up to the first blank line;
//   - footers: from the last line made only of dashes (or empty) to the
//     end, the usual signature block; unchanged if that line is the first;
//   - quotes: every line matching "writes in", "writes:", "wrote:",
//     "says:", "said:", or starting with "In article", "Quoted from", "|"
//     or ">".
//
// Stripping makes a classifier (or a topic) rely on the words of the post,
// not on who wrote it or whom it quotes.
func StripPost(text string, parts ...string) string {
	if slices.Contains(parts, StripHeaders) {
		if _, after, ok := strings.Cut(text, "\n\n"); ok {
			text = after
		} else {
			text = ""
		}
	}
	if slices.Contains(parts, StripFooters) {
		lines := strings.Split(strings.TrimSpace(text), "\n")
		n := len(lines) - 1
		for ; n >= 0; n-- {
			if strings.Trim(strings.TrimSpace(lines[n]), "-") == "" {
				break
			}
		}
		if n > 0 {
			text = strings.Join(lines[:n], "\n")
		}
	}
	if slices.Contains(parts, StripQuotes) {
		lines := strings.Split(text, "\n")
		kept := lines[:0]
		for _, l := range lines {
			if !quoteLine.MatchString(l) {
				kept = append(kept, l)
			}
		}
		text = strings.Join(kept, "\n")
	}
	return text
}
