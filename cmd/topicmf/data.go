package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/schollz/progressbar/v3"
	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
)

// dataSources is the registry the data commands work on (a variable so
// that tests can add a source with a deliberately broken reader).
var dataSources = datasets.Sources

func newDataCmd() *cobra.Command {
	var legacyDir string
	cmd := &cobra.Command{
		Use:   "data",
		Short: "List, verify, fetch and describe the public data sets",
		Long: `Manage the data directory holding the public collections.

The data directory is --data-dir when given, else $TOPICMF_DATA, else
<user cache dir>/topicmf/data. Every file is checked against its size and
SHA-256 digest as registered in the datasets package.`,
	}
	// --data was this command's name for --data-dir; still accepted, no
	// longer shown.
	cmd.PersistentFlags().StringVar(&legacyDir, "data", "", "data directory (older name of --data-dir)")
	cmd.PersistentFlags().MarkHidden("data")
	cmd.AddCommand(
		newDataListCmd(),
		newDataVerifyCmd(),
		newDataFetchCmd(),
		newDataStatsCmd(),
	)
	return cmd
}

// selectSources returns the named sources (all when names is empty), in
// registry order, or an error naming an unknown one and the known names.
func selectSources(names []string) ([]datasets.Source, error) {
	all := dataSources()
	if len(names) == 0 {
		return all, nil
	}
	byName := map[string]datasets.Source{}
	var known []string
	for _, s := range all {
		byName[s.Name] = s
		known = append(known, s.Name)
	}
	var out []datasets.Source
	seen := map[string]bool{}
	for _, n := range names {
		s, ok := byName[n]
		if !ok {
			return nil, fmt.Errorf("unknown data set %q (known: %s)", n, strings.Join(known, ", "))
		}
		if !seen[n] {
			seen[n] = true
			out = append(out, s)
		}
	}
	return out, nil
}

// usedBy maps each file path to the names of the sources that list it.
func usedBy(srcs []datasets.Source) map[string][]string {
	m := map[string][]string{}
	for _, s := range srcs {
		for _, f := range s.Files {
			m[f.Path] = append(m[f.Path], s.Name)
		}
	}
	return m
}

// presence says whether files are in dir: "yes" when every one is there
// at its registered size, "no" when none is, "i/n" when i of n are, and
// "changed" when one has another size (data verify names it).
func presence(dir string, files []datasets.File) string {
	here := 0
	for _, f := range files {
		fi, err := os.Stat(filepath.Join(dir, filepath.FromSlash(f.Path)))
		switch {
		case err != nil:
		case fi.Size() != f.Size:
			return "changed"
		default:
			here++
		}
	}
	switch here {
	case len(files):
		return "yes"
	case 0:
		return "no"
	}
	return fmt.Sprintf("%d/%d", here, len(files))
}

// firstSentence is s up to the first ". " that ends a sentence (not one
// after an abbreviation such as "et al." or an initial), or s.
func firstSentence(s string) string {
	for from := 0; ; {
		i := strings.Index(s[from:], ". ")
		if i < 0 {
			return s
		}
		i += from
		word := s[strings.LastIndexAny(s[:i], " (")+1 : i]
		switch word {
		case "al", "e.g", "i.e", "cf", "vs":
		default:
			if len(word) > 1 {
				return s[:i+1]
			}
		}
		from = i + 2
	}
}

func totalBytes(files []datasets.File) int64 {
	var n int64
	for _, f := range files {
		n += f.Size
	}
	return n
}

// --- list ---

type listFileJSON struct {
	Path   string `json:"path"`
	URL    string `json:"url,omitempty"`
	Member string `json:"member,omitempty"`
	SHA256 string `json:"sha256"`
	Size   int64  `json:"size"`
}

type listJSON struct {
	Name        string         `json:"name"`
	Description string         `json:"description"`
	Bytes       int64          `json:"bytes"`
	Files       []listFileJSON `json:"files"`
}

func newDataListCmd() *cobra.Command {
	var asJSON, long bool
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the known data sets: name, whether present, size, description",
		Long: `list shows every registered data set: its name, whether its files are in the
data directory (present: every file there at its registered size; "data
verify" checks the digests), its size and what it is (the first sentence;
--long for the whole description, --json for every file's path, URL, digest
and size). "topicmf data fetch NAME" downloads what is missing.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			out := cmd.OutOrStdout()
			srcs := dataSources()
			if asJSON {
				list := make([]listJSON, 0, len(srcs))
				for _, s := range srcs {
					e := listJSON{Name: s.Name, Description: s.Description, Bytes: totalBytes(s.Files), Files: []listFileJSON{}}
					for _, f := range s.Files {
						e.Files = append(e.Files, listFileJSON{f.Path, f.URL, f.Member, f.SHA256, f.Size})
					}
					list = append(list, e)
				}
				return writeJSON(out, list)
			}
			dir, origin, err := datasets.LocateDataDir(dataDirFlag(cmd))
			if err != nil {
				return fmt.Errorf("data list: %w", err)
			}
			if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
				fmt.Fprintf(out, "Data directory %s (from %s) does not exist: nothing is present.\n\n", dir, origin)
			} else {
				fmt.Fprintf(out, "Data directory %s (from %s).\n\n", dir, origin)
			}
			rows := make([][]string, 0, len(srcs))
			for _, s := range srcs {
				desc := s.Description
				if !long {
					desc = firstSentence(desc)
				}
				rows = append(rows, []string{s.Name, presence(dir, s.Files), humanBytes(totalBytes(s.Files)), desc})
			}
			return writeWrapped(out, listWidth(out), []string{"NAME", "PRESENT", "SIZE", "DESCRIPTION"}, rows)
		},
	}
	cmd.Flags().BoolVarP(&long, "long", "l", false, "the whole description of each data set")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (with every file's path, URL, digest and size)")
	return cmd
}

func writeJSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// --- verify ---

func newDataVerifyCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "verify [NAME...]",
		Short: "Check the files of data sets (default all) against their size and SHA-256",
		Long: `Check every file of the named data sets (default: all) against its
registered size and SHA-256 digest. Each distinct file is read once. Prints
one line per bad file (missing, wrong size, wrong digest with the expected
and actual digests) and exits non-zero; when all are good prints a summary.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			srcs, err := selectSources(args)
			if err != nil {
				return err
			}
			dir, err := datasets.DataDir(dataDirFlag(cmd))
			if err != nil {
				return err
			}
			out := cmd.OutOrStdout()
			files := datasets.DistinctFiles(srcs)
			users := usedBy(srcs)
			bad := 0
			for _, f := range files {
				if err := cmd.Context().Err(); err != nil {
					return err
				}
				st := datasets.VerifyFile(dir, f)
				if !st.OK() {
					bad++
					fmt.Fprintf(out, "%s (data set %s)\n", st, strings.Join(users[f.Path], ", "))
				}
			}
			if bad > 0 {
				return fmt.Errorf("%d of %d files failed verification in %s", bad, len(files), dir)
			}
			fmt.Fprintf(out, "all %d files of %d data sets verified in %s (%s)\n",
				len(files), len(srcs), dir, humanBytes(totalBytes(files)))
			return nil
		},
	}
}

// --- fetch ---

func newDataFetchCmd() *cobra.Command {
	var mirror string
	cmd := &cobra.Command{
		Use:   "fetch [NAME...]",
		Short: "Download missing or damaged files of data sets (default all), verified",
		Long: `Download every missing or damaged file of the named data sets (default:
all) into the data directory, creating it if needed. Each file goes to a
temporary file beside its destination and is renamed into place only after
its size and SHA-256 digest match, so an interrupted or corrupt download
leaves nothing behind. Files already present and intact are not downloaded.

--mirror replaces the registered URLs: each file is fetched from
MIRROR/<path below the data directory>. MIRROR may be an http(s) URL, a
file:// URL or a local directory (a copy of a data directory).`,
		RunE: func(cmd *cobra.Command, args []string) error {
			srcs, err := selectSources(args)
			if err != nil {
				return err
			}
			dir, origin, err := datasets.LocateDataDir(dataDirFlag(cmd))
			if err != nil {
				return err
			}
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return fmt.Errorf("data directory %s (from %s): %w", dir, origin, err)
			}
			out := cmd.OutOrStdout()
			bar := newBarProgress(cmd.ErrOrStderr(), quietFlag(cmd))
			opt := datasets.FetchOptions{Mirror: mirror, Progress: bar.update}
			files := datasets.DistinctFiles(srcs)
			var failed, downloaded int
			for _, f := range files {
				res, err := datasets.FetchFiles(cmd.Context(), dir, []datasets.File{f}, opt)
				bar.finish()
				if ctxErr := cmd.Context().Err(); ctxErr != nil {
					if err == nil {
						err = fmt.Errorf("fetch cancelled after %s: %w", f.Path, ctxErr)
					}
					return err
				}
				for _, r := range res {
					switch r.Action {
					case datasets.FetchPresent:
						fmt.Fprintf(out, "%s: ok (already present)\n", r.File.Path)
					case datasets.FetchDownloaded:
						downloaded++
						fmt.Fprintf(out, "%s: downloaded %s from %s\n", r.File.Path, humanBytes(r.File.Size), r.From)
					default:
						failed++
						fmt.Fprintln(out, oneLine(r.Err))
					}
				}
			}
			if failed > 0 {
				return fmt.Errorf("%d of %d files could not be fetched into %s", failed, len(files), dir)
			}
			fmt.Fprintf(out, "%d files present and verified in %s (%d downloaded)\n", len(files), dir, downloaded)
			return nil
		},
	}
	cmd.Flags().StringVar(&mirror, "mirror", "", "fetch every file from `URL`/<path> instead of its registered URL (http(s), file:// or a local directory)")
	return cmd
}

// barProgress draws a byte progress bar on a terminal, and nothing
// otherwise or with --quiet (logs and tests get the one line per file
// printed on stdout).
type barProgress struct {
	w    io.Writer
	on   bool
	path string
	bar  *progressbar.ProgressBar
}

func newBarProgress(w io.Writer, quiet bool) *barProgress {
	f, ok := w.(*os.File)
	return &barProgress{w: w, on: !quiet && ok && term.IsTerminal(int(f.Fd()))}
}

func (b *barProgress) update(f datasets.File, got, total int64) {
	if !b.on {
		return
	}
	if b.bar == nil || b.path != f.Path {
		b.finish()
		b.path = f.Path
		b.bar = progressbar.NewOptions64(total,
			progressbar.OptionSetWriter(b.w),
			progressbar.OptionSetDescription(f.Path),
			progressbar.OptionShowBytes(true),
			progressbar.OptionShowTotalBytes(true),
			progressbar.OptionSetWidth(20),
			progressbar.OptionClearOnFinish(),
		)
	}
	b.bar.Set64(got)
}

func (b *barProgress) finish() {
	if b.bar != nil {
		b.bar.Finish()
		b.bar = nil
	}
}

// --- stats ---

type levelJSON struct {
	Level int     `json:"level"`
	Count int     `json:"count"`
	Gain  float64 `json:"gain"`
}

type statsJSON struct {
	Name           string         `json:"name"`
	Docs           int            `json:"docs"`
	DocsBySplit    map[string]int `json:"docs_by_split"`
	Classes        int            `json:"classes"`
	DocsByClass    map[string]int `json:"docs_by_class"`
	Queries        int            `json:"queries"`
	QueriesBySplit map[string]int `json:"queries_by_split"`
	JudgedQueries  int            `json:"judged_queries"`
	Judgments      int            `json:"judgments"`
	JudgedPairs    int            `json:"judged_pairs"`
	Levels         []levelJSON    `json:"relevance_levels"`
	GainNote       string         `json:"gain_note,omitempty"`
	Vocabulary     *int           `json:"vocabulary,omitempty"`
	IndexedDocs    int            `json:"indexed_docs"`
	Tokens         int64          `json:"indexed_tokens"`
	VocabularyNote string         `json:"vocabulary_note"`
	Warnings       []string       `json:"warnings"`
}

// noSplit names documents and queries without a split.
const noSplit = "(none)"

func collectionStats(c *datasets.Collection) statsJSON {
	s := statsJSON{
		Name: c.Name, Docs: len(c.Docs), DocsBySplit: map[string]int{}, DocsByClass: map[string]int{},
		Queries: len(c.Queries), QueriesBySplit: map[string]int{}, Judgments: len(c.Qrels),
		GainNote: c.GainNote, Warnings: append([]string{}, c.Warnings...), Levels: []levelJSON{},
	}
	classes := map[string]bool{}
	for _, cl := range c.Classes {
		classes[cl] = true
	}
	for _, d := range c.Docs {
		s.DocsBySplit[splitName(d.Split)]++
		labels := d.Categories
		if len(labels) == 0 && d.Class != "" {
			labels = []string{d.Class}
		}
		for _, l := range labels {
			s.DocsByClass[l]++
			classes[l] = true
		}
	}
	s.Classes = len(classes)
	for _, q := range c.Queries {
		s.QueriesBySplit[splitName(q.Split)]++
	}
	type pair struct{ q, d string }
	pairs := map[pair]bool{}
	judged := map[string]bool{}
	levels := map[int]int{}
	for _, j := range c.Qrels {
		pairs[pair{j.QueryID, j.DocID}] = true
		judged[j.QueryID] = true
		levels[j.Level]++
	}
	s.JudgedPairs, s.JudgedQueries = len(pairs), len(judged)
	for l, n := range levels {
		s.Levels = append(s.Levels, levelJSON{Level: l, Count: n, Gain: c.Gains[l]})
	}
	sort.Slice(s.Levels, func(a, b int) bool { return s.Levels[a].Level < s.Levels[b].Level })
	return s
}

func splitName(s string) string {
	if s == "" {
		return noSplit
	}
	return s
}

// readCollection runs the source's reader, turning a panic (a reader bug
// met on bad data) into an error rather than a crash.
func readCollection(src datasets.Source, dir string) (c *datasets.Collection, err error) {
	defer func() {
		if r := recover(); r != nil {
			c, err = nil, fmt.Errorf("reader failed unexpectedly (a bug, please report it): %v", r)
		}
	}()
	if src.Read == nil {
		return nil, fmt.Errorf("no reader registered")
	}
	c, err = src.Read(dir)
	if err == nil && c == nil {
		err = fmt.Errorf("reader returned no collection")
	}
	return c, err
}

// oneLine flattens a (possibly joined) error to a single line.
func oneLine(err error) string {
	return strings.Join(strings.Fields(strings.ReplaceAll(err.Error(), "\n", "; ")), " ")
}

func newDataStatsCmd() *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "stats NAME",
		Short: "Count a data set's documents by split, classes, queries, judgments and levels",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			srcs, err := selectSources(args)
			if err != nil {
				return err
			}
			src := srcs[0]
			dir, err := datasets.DataDir(dataDirFlag(cmd))
			if err != nil {
				return err
			}
			for _, f := range src.Files {
				if st := datasets.VerifyFile(dir, f); st.Status == datasets.StatusMissing {
					return fmt.Errorf("data set %s: %s is missing from %s (run \"topicmf data fetch %s\")", src.Name, f.Path, dir, src.Name)
				}
			}
			c, err := readCollection(src, dir)
			if err != nil {
				msg := fmt.Sprintf("data set %s: %s", src.Name, oneLine(err))
				// Say which file is damaged, when one is.
				for _, st := range datasets.Verify(dir, src) {
					if !st.OK() {
						msg += " [" + st.String() + "]"
						break
					}
				}
				return fmt.Errorf("%s", msg)
			}
			s := collectionStats(c)
			if s.Name == "" {
				s.Name = src.Name
			}
			addVocabulary(&s, c, dir)
			if asJSON {
				return writeJSON(cmd.OutOrStdout(), s)
			}
			return printStats(cmd.OutOrStdout(), s)
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print JSON (with per-class document counts)")
	return cmd
}

// addVocabulary runs the bare text pipeline (text.Bare: tokens of at least
// 2 runes, numbers dropped, nothing else removed; see datasets/text) on c and records the vocabulary size, the documents
// it keeps and their indexed tokens. A pipeline error is recorded in the
// note rather than failing the command: the counts above stand without it.
func addVocabulary(s *statsJSON, c *datasets.Collection, dir string) {
	opts := text.Bare(text.Options{DataDir: dir})
	corpus, rep, err := text.Build(c, opts)
	if err != nil {
		s.VocabularyNote = "bare text pipeline failed: " + oneLine(err)
		return
	}
	m := corpus.Terms()
	s.Vocabulary, s.IndexedDocs, s.Tokens = &m, rep.Kept, rep.Tokens
	s.VocabularyNote = "bare text pipeline " + opts.Canonical()
}

// maxClassLines bounds the per-class lines in the text output.
const maxClassLines = 30

func printStats(w io.Writer, s statsJSON) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "data set\t%s\n", s.Name)
	fmt.Fprintf(tw, "documents\t%d%s\n", s.Docs, splitList(s.DocsBySplit))
	switch {
	case len(s.DocsByClass) == 0:
		fmt.Fprintf(tw, "classes\t%d\n", s.Classes)
	case len(s.DocsByClass) <= maxClassLines:
		fmt.Fprintf(tw, "classes\t%d\t(documents per class below)\n", s.Classes)
	default:
		fmt.Fprintf(tw, "classes\t%d\t(documents per class: use --json)\n", s.Classes)
	}
	fmt.Fprintf(tw, "queries\t%d%s\n", s.Queries, splitList(s.QueriesBySplit))
	fmt.Fprintf(tw, "judged queries\t%d\n", s.JudgedQueries)
	fmt.Fprintf(tw, "judged pairs\t%d", s.JudgedPairs)
	if s.Judgments != s.JudgedPairs {
		fmt.Fprintf(tw, "\t(%d judgment lines; repeated pairs counted once)", s.Judgments)
	}
	fmt.Fprintln(tw)
	fmt.Fprintf(tw, "relevance levels\t%d\n", len(s.Levels))
	for _, l := range s.Levels {
		fmt.Fprintf(tw, "  level %d\t%d\tgain %g\n", l.Level, l.Count, l.Gain)
	}
	if s.GainNote != "" {
		fmt.Fprintf(tw, "  gains\t%s\n", s.GainNote)
	}
	if s.Vocabulary != nil {
		fmt.Fprintf(tw, "vocabulary\t%d\t(%d documents indexed, %d tokens)\n", *s.Vocabulary, s.IndexedDocs, s.Tokens)
		fmt.Fprintf(tw, "  pipeline\t%s\n", s.VocabularyNote)
	} else {
		fmt.Fprintf(tw, "vocabulary\t-\t%s\n", s.VocabularyNote)
	}
	for _, warn := range s.Warnings {
		fmt.Fprintf(tw, "warning\t%s\n", warn)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(s.DocsByClass) == 0 || len(s.DocsByClass) > maxClassLines {
		return nil
	}
	fmt.Fprintln(w, "documents per class:")
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	for _, name := range slices.Sorted(maps.Keys(s.DocsByClass)) {
		fmt.Fprintf(tw, "%d\t  %s\n", s.DocsByClass[name], name)
	}
	return tw.Flush()
}

func splitList(m map[string]int) string {
	if len(m) == 0 || (len(m) == 1 && m[noSplit] > 0) {
		return ""
	}
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(m)) {
		parts = append(parts, fmt.Sprintf("%s %d", k, m[k]))
	}
	return "\t(" + strings.Join(parts, ", ") + ")"
}
