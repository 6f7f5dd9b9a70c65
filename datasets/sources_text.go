package datasets

import (
	"bufio"
	"fmt"
	"io"
	"path/filepath"
	"unicode/utf8"
)

// Canonical locations of the labelled text collections. Where the staged
// file is byte-identical to a repository blob the URL is the raw GitHub
// address at the commit named in the collection's SOURCE.md; where the
// staged file was rebuilt (git archive, gzip) the Description says so and
// says how fetch verifies a canonical download (canonical.go).
const (
	sttmRaw   = "https://raw.githubusercontent.com/qiang2100/STTM/5573ed45095c162591f5d82e58e60bb8fd93ed08/dataset/"
	stc2Raw   = "https://raw.githubusercontent.com/jacoxu/STC2/34a28c5a8cf2d6e1db300d32f271f6522db3bde5/dataset/"
	sttmNote  = " Staged files are the repository files of qiang2100/STTM (commit 5573ed4) compressed with gzip -9 -n; the SHA-256 digests are of the staged .gz copies, fetch checks the uncompressed text served at the URLs against their content and compresses it itself (canonical.go)."
	stc2Note  = " Staged files are the repository files of jacoxu/STC2 (commit 34a28c5) compressed with gzip -9 -n; the SHA-256 digests are of the staged .gz copies, fetch checks the uncompressed text served at the URLs against their content and compresses it itself (canonical.go)."
	rennieURL = "http://qwone.com/~jason/20Newsgroups/20news-bydate.tar.gz"
	uciURL    = "https://archive.ics.uci.edu/ml/machine-learning-databases/reuters21578-mld/reuters21578.tar.gz"
)

// textSources are the labelled text collections (readers in newsgroups.go,
// reuters.go, shorttext.go, moviereview.go).
func textSources() []Source {
	ng := File{Path: NewsgroupsFile, URL: rennieURL,
		SHA256: "0b77ddb1e0db5c66e486909d60e754c629d6e144db245ea46d1477b2f3276ecb", Size: 14388470}
	reuters := File{Path: ReutersFile, URL: uciURL,
		SHA256: "7299e20dc2488258b01bde0ade56dc856ed3bcf51b0df8c4358fe7e13c412cc8", Size: 8092871}
	return []Source{
		{
			Name: "20newsgroups",
			Description: "20 Newsgroups, bydate version: 18,846 Usenet posts in 20 groups, split by posting date into " +
				"11,314 train / 7,532 test; Text is the Subject line plus the body (other headers dropped). " +
				"The staged archive was rebuilt with git archive from julenminer/mlnn_P65 (commit 7393be6) with " +
				"the same layout and file bytes as Rennie's; the SHA-256 is of the staged copy; fetch also accepts " +
				"Rennie's original archive by the digest scikit-learn pins for it (canonical.go).",
			Files: []File{ng},
			Read:  ReadNewsgroups,
		},
		{
			Name: "reuters21578",
			Description: "Reuters-21578 Distribution 1.0, ModApte split (LEWISSPLIT TRAIN/TEST with TOPICS=\"YES\"): " +
				"9,603 train / 3,299 test newswire stories, multi-label TOPICS categories (Class set only for " +
				"single-topic stories). The staged archive was rebuilt with git archive from " +
				"colibri17/TextCategorization (commit b6c2ca3), same files as UCI's; the SHA-256 is of the staged " +
				"copy and UCI publishes no digest, so a canonical download cannot be verified: fetch it with --mirror.",
			Files: []File{reuters},
			Read:  ReadReuters,
		},
		{
			Name: "reuters-r8",
			Description: "Reuters-21578 R8: ModApte stories with exactly one topic among acq, crude, earn, grain, " +
				"interest, money-fx, ship, trade: 5,485 train / 2,190 test (Cardoso-Cachopo's published R8 has " +
				"2,189 test). Same staged archive as reuters21578 (fetch it with --mirror).",
			Files: []File{reuters},
			Read:  ReadReutersR8,
		},
		shortTextSource("sttm-searchsnippets", "short_text_sttm", "SearchSnippets.txt.gz", "SearchSnippets_label.txt.gz",
			sttmRaw, "08428b89c3fcd68b2837896d1d4d0e0caf333fceffc8b2b03ca2cc30d01cb683", 349184,
			"7b291c1a24397ee548baf47bdf7eea9c50686dcab5b865d32d8bc740bdcee94e", 99,
			"SearchSnippets web search snippets (Phan et al. 2008), STTM preprocessed: 12,295 docs, 8 domains."+sttmNote),
		shortTextSource("sttm-stackoverflow", "short_text_sttm", "StackOverflow.txt.gz", "StackOverflow_label.txt.gz",
			sttmRaw, "b73c9bf1cd7f803c815a1e09cd08444defcae69d818efa8bea3301f1fcbe03fc", 184368,
			"bdd5cd7e2aaa30d2bc588e42ef0753c94bb97605efe8f91a2f955c7f58e16c5d", 10986,
			"StackOverflow question titles (Xu et al.), STTM preprocessed: 16,407 docs, 20 tags."+sttmNote),
		shortTextSource("sttm-biomedical", "short_text_sttm", "Biomedical.txt.gz", "Biomedical_label.txt.gz",
			sttmRaw, "55a676757cb3c3e1515fe8298f6e68110782b631347dd1acab5c61c2dd43dd27", 327232,
			"4840707ac8b8ff7232cd45f189b49d48d1a981300d793e27b7ad26621311d77a", 128,
			"Biomedical BioASQ paper titles (Xu et al.), STTM preprocessed: 19,448 docs, 20 classes."+sttmNote),
		shortTextSource("sttm-tweet", "short_text_sttm", "Tweet.txt.gz", "Tweet_LABEL.txt.gz",
			sttmRaw, "8f97923b56ffbcd991754912c9662a9999afdde34f02f4126b51147277831649", 49848,
			"0e08d3534883b6362805e3d223d986bc5aac97063f17dfb68298f9e7b1f50a9b", 2646,
			"Tweets highly relevant to TREC 2011/2012 microblog queries, STTM preprocessed: 2,472 docs, 89 query clusters (labels file is Tweet_LABEL)."+sttmNote),
		shortTextSource("stc2-searchsnippets", "short_text_stc2", "SearchSnippets.txt.gz", "SearchSnippets_gnd.txt.gz",
			stc2Raw, "281542a9d2a90645c1409b114f663ffb822ac5eddd9d6b4613faeb978e4592ec", 521699,
			"fc068639557b05d2722f2a42870cb1ca4124b3f3635835f5b95f97e37248773a", 99,
			"SearchSnippets raw text (STC² release, Xu et al. 2017): 12,340 docs, 8 domains; the text file starts with a UTF-8 BOM, which is dropped."+stc2Note),
		shortTextSource("stc2-stackoverflow", "short_text_stc2", "StackOverflow.txt.gz", "StackOverflow_gnd.txt.gz",
			stc2Raw, "480f799feac5ab0eda9dcea55b2b8c640149919ea7ae3ce8d0160971563e2d0e", 397601,
			"9727c66c0762261ae9808cc6a905daa7cf9c34b69b4a52a6678cfe0862276842", 13295,
			"StackOverflow question titles, raw case and punctuation (STC² release): 20,000 docs, 20 tags of 1,000."+stc2Note),
		shortTextSource("stc2-biomedical", "short_text_stc2", "Biomedical.txt.gz", "Biomedical_gnd.txt.gz",
			stc2Raw, "a24f5a959505236c788d9e3bca00cabdb2250419ded052b5a76eea9bb41259b6", 521322,
			"950a1ec0afb307f9e3c897c5541cb56b728faf73252bb1588cf78c9f3fce02f3", 126,
			"Biomedical BioASQ paper titles, raw (STC² release): 20,000 docs, 20 classes of 1,000."+stc2Note),
		{
			Name: "movie-review",
			Description: "Movie Review polarity v2.0 (Pang & Lee 2004), NLTK packaging: 2,000 tokenized, lower-cased " +
				"reviews, 1,000 pos / 1,000 neg; Split is the 10-fold cross-validation fold \"0\"..\"9\" from the " +
				"cvNNN file prefix. Staged unchanged from nltk/nltk_data (commit 5db857e).",
			Files: []File{{Path: MovieReviewFile,
				URL:    "https://raw.githubusercontent.com/nltk/nltk_data/5db857e6f7df11eabb5e5665836db9ec8df07e28/packages/corpora/movie_reviews.zip",
				SHA256: "a41211ae685019137410268134db6a1a14428c89b671eb83056151a878539008", Size: 4004848}},
			Read: ReadMovieReviews,
		},
	}
}

// shortTextSource builds the registry entry of one parallel text/label
// pair: the staged files are dir/text and dir/labels, served (uncompressed,
// without the .gz suffix) below rawBase.
func shortTextSource(name, dir, text, labels, rawBase, textSum string, textSize int64,
	labelSum string, labelSize int64, desc string) Source {
	textPath := dir + "/" + text
	labelPath := dir + "/" + labels
	return Source{
		Name:        name,
		Description: desc,
		Files: []File{
			{Path: textPath, URL: rawBase + trimGz(text), SHA256: textSum, Size: textSize},
			{Path: labelPath, URL: rawBase + trimGz(labels), SHA256: labelSum, Size: labelSize},
		},
		Read: func(dataDir string) (*Collection, error) {
			return ReadShortText(name, dataFilePath(dataDir, textPath), dataFilePath(dataDir, labelPath))
		},
	}
}

func trimGz(name string) string {
	if len(name) > 3 && name[len(name)-3:] == ".gz" {
		return name[:len(name)-3]
	}
	return name
}

// dataFilePath joins a registry path (slash-separated, relative to the
// data directory) to dataDir.
func dataFilePath(dataDir, rel string) string {
	return filepath.Join(dataDir, filepath.FromSlash(rel))
}

// utf8OrLatin1 returns b as a string. Bytes that are not valid UTF-8 are
// read as Latin-1 (ISO 8859-1: each byte is the code point of the same
// value), the encoding of the 1990s Usenet and newswire texts; latin1
// reports whether that fallback was taken. The whole of b is decoded one
// way, never mixed.
func utf8OrLatin1(b []byte) (s string, latin1 bool) {
	if utf8.Valid(b) {
		return string(b), false
	}
	return latin1String(string(b)), true
}

// maxTextLine bounds one line of a line-per-document file (16 MiB).
const maxTextLine = 16 << 20

// eachTextLine calls f with each line of r (1-based line number, line
// without its "\n" or "\r\n"). A final line without a newline counts; a
// trailing newline does not start an empty extra line.
func eachTextLine(path string, r io.Reader, f func(n int, line []byte) error) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxTextLine)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Bytes()
		if k := len(line); k > 0 && line[k-1] == '\r' {
			line = line[:k-1]
		}
		if err := f(n, line); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		if err == bufio.ErrTooLong {
			return fmt.Errorf("%s: line %d: longer than %d bytes", path, n+1, maxTextLine)
		}
		return fmt.Errorf("%s: read error after line %d (truncated or corrupt file?): %w", path, n, err)
	}
	return nil
}
