package datasets

import (
	"fmt"
	"io"
	"sort"
	"strings"
)

// MovieReviewFile is the NLTK packaging of Pang & Lee's polarity data v2.0
// below the data directory (see movie_review_polarity/SOURCE.md).
const MovieReviewFile = "movie_review_polarity/movie_reviews.zip"

// ReadMovieReviews reads the Movie Review polarity collection from the data
// directory: 2,000 reviews, 1,000 pos and 1,000 neg.
func ReadMovieReviews(dataDir string) (*Collection, error) {
	return ReadMovieReviewArchive(dataFilePath(dataDir, MovieReviewFile))
}

// ReadMovieReviewArchive reads movie_reviews.zip: members
// <root>/pos/cvNNN_XXXXX.txt and <root>/neg/cvNNN_XXXXX.txt, one review per
// file (already tokenized and lower-cased, one sentence per line). The
// root folder is "movie_reviews" in NLTK's zip ("txt_sentoken" in the
// original tarball); any single root is accepted.
//
// Each Document has ID "<class>/<file stem>" (e.g. "neg/cv000_29416"),
// Class "pos" or "neg", Text the file and Split the cross-validation fold
// "0".."9" of Pang & Lee (2004), the first digit of NNN (cv0xx is fold 0,
// cv9xx fold 9). The <root>/README member is skipped; any other member is
// an error. A file that is not valid UTF-8 is decoded as Latin-1 and
// counted in Warnings. Documents are sorted by ID.
func ReadMovieReviewArchive(archive string) (*Collection, error) {
	var docs []Document
	latin1 := 0
	err := EachZipMember(archive, func(name string, r io.Reader) error {
		class, stem, fold, skip, err := parseMovieReviewMember(name)
		if err != nil {
			return err
		}
		if skip {
			return nil
		}
		raw, err := io.ReadAll(r)
		if err != nil {
			return fmt.Errorf("read error (truncated or corrupt archive?): %w", err)
		}
		text, l1 := utf8OrLatin1(raw)
		if l1 {
			latin1++
		}
		docs = append(docs, Document{ID: class + "/" + stem, Text: text, Class: class, Split: fold})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("movie-review: %w", err)
	}
	if len(docs) == 0 {
		return nil, fmt.Errorf("movie-review: %s: no reviews found (expected members <root>/{pos,neg}/cvNNN_*.txt)", archive)
	}
	sort.Slice(docs, func(a, b int) bool { return docs[a].ID < docs[b].ID })
	c := &Collection{Name: "movie-review", Docs: docs}
	seen := map[string]bool{}
	for i, d := range docs {
		if i > 0 && d.ID == docs[i-1].ID {
			return nil, fmt.Errorf("movie-review: %s: review %q appears twice", archive, d.ID)
		}
		if !seen[d.Class] {
			seen[d.Class] = true
			c.Classes = append(c.Classes, d.Class)
		}
	}
	sort.Strings(c.Classes)
	c.warnCount(latin1, "movie-review: %d reviews were not valid UTF-8 and were decoded as Latin-1")
	return c, nil
}

// parseMovieReviewMember splits "<root>/<pos|neg>/cvNNN_XXXXX.txt" into its
// class, file stem and fold; skip is true for "<root>/README".
func parseMovieReviewMember(name string) (class, stem, fold string, skip bool, err error) {
	parts := strings.Split(name, "/")
	if len(parts) == 2 && parts[1] == "README" {
		return "", "", "", true, nil
	}
	bad := func(why string) error {
		return fmt.Errorf("unexpected member %q: %s (expected <root>/pos/cvNNN_*.txt, <root>/neg/cvNNN_*.txt or <root>/README)", name, why)
	}
	if len(parts) != 3 {
		return "", "", "", false, bad("not three path elements")
	}
	class = parts[1]
	if class != "pos" && class != "neg" {
		return "", "", "", false, bad("class directory is neither pos nor neg")
	}
	file := parts[2]
	if !strings.HasSuffix(file, ".txt") {
		return "", "", "", false, bad("not a .txt file")
	}
	stem = strings.TrimSuffix(file, ".txt")
	if len(stem) < 6 || stem[:2] != "cv" || !textIsDigits(stem[2:5]) || stem[5] != '_' {
		return "", "", "", false, bad("file name does not start with cvNNN_")
	}
	return class, stem, stem[2:3], false, nil
}

func textIsDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}
