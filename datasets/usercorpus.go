package datasets

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// This file and usercorpus_*.go read a user's own collection, as opposed
// to a registered one. Formats (UserOptions.Format, or chosen by ReadUser
// from the path):
//
//   - "dir": a directory of text files, one document per file; the path of
//     a file's folder below the root is its class ("sci.space/61019" has
//     class "sci.space"), as 20 Newsgroups is laid out; files directly in
//     the root have no class. Hidden files and folders (".name") are
//     skipped. Document ids are the files' slash-separated relative paths.
//     A symbolic link to a regular file is read as the file; a link to a
//     directory is not followed, and it and any other entry that is not a
//     regular file (device, pipe, socket, dangling link) are named in the
//     collection's Warnings (see walkUserFiles).
//   - "csv", "tsv": a header line, then one document per record; the text
//     column (default "text") is required, the id (default "id"), label
//     (default "label") and split ("split") columns are used when present.
//     Several text columns may be named ("title,description"); their
//     fields are joined, one a line. Without a header (NoHeader) every
//     line is a record and the columns are 1-based positions ("2,3").
//     Without an id column a document's id is its record number (1-based).
//     CSV fields may be quoted (RFC 4180: a quoted field holds commas,
//     doubled quotes and newlines); TSV has no quoting: a record is one
//     line, its fields split at every tab, and a quote is an ordinary
//     character.
//   - "jsonl": one JSON object per line, {"id", "text", "label", "split"};
//     "text" is required, the others optional; ids may be strings or
//     numbers; blank lines are skipped; other keys are ignored. TextCol,
//     IDCol and LabelCol name other keys (TextCol may name several).
//   - "smart": a SMART-format document file (.I/.T/.W records, the format of
//     Cranfield, MED, CISI, ADI and CACM), with optional query file (the
//     same format) and TREC qrels (UserOptions.Queries, UserOptions.Qrels).
//   - "trec": TREC SGML documents (usercorpus_trec.go); "trec-topics": a
//     TREC topic file (usercorpus_trectopics.go).
//
// A document id must be non-empty, unique and free of control characters
// (newline, tab, ...): a run's doc_ids.txt holds one id a line.
//
// Text is UTF-8; a leading byte order mark is skipped. As for the
// registered collections, a file (dir), record (CSV, TSV) or line (JSONL,
// SMART) that is not valid UTF-8 is decoded as Latin-1, and the count is a
// warning naming the file and the first such file, record or line.
//
// Every reader streams its input (a record at a time, files one by one), so
// the size of a file is bounded only by the memory the documents' text
// takes. A malformed record stops the read with one line naming the file,
// the line or record and the problem, long parts elided.

// User collection formats.
const (
	FormatDir   = "dir"
	FormatCSV   = "csv"
	FormatTSV   = "tsv"
	FormatJSONL = "jsonl"
	FormatSMART = "smart"
	// FormatTREC is TREC's SGML documents (<DOC><DOCNO>…<TEXT>…), one
	// file, gzip'ed or not, or a folder of them (usercorpus_trec.go).
	FormatTREC = "trec"
	// FormatTRECTopics is a TREC topic file (<top><num><title><desc>), the
	// queries of rank (usercorpus_trectopics.go).
	FormatTRECTopics = "trec-topics"
)

// UserFormats are the formats ReadUser reads.
var UserFormats = []string{FormatDir, FormatCSV, FormatTSV, FormatJSONL, FormatSMART, FormatTREC, FormatTRECTopics}

// UserOptions says how to read a user's collection. The zero value reads
// by the path's form (see ReadUser) with the default column names.
type UserOptions struct {
	// Format is one of the Format constants; "" chooses by the path: a
	// directory is "dir", .csv "csv", .tsv/.tab "tsv", .jsonl/.ndjson
	// "jsonl", and a file whose first non-blank line is ".I <n>" "smart".
	Format string
	// TextCol, IDCol, LabelCol name the CSV/TSV columns, or the JSONL
	// keys; "" means "text", "id" and "label". Only the text is required.
	// TextCol may name several, comma-separated ("title,description"),
	// whose texts are joined, one a line. With NoHeader, CSV/TSV columns
	// are 1-based positions ("2,3").
	TextCol, IDCol, LabelCol string
	// NoHeader says that a CSV/TSV file has no header line: every line is
	// a record, and TextCol (required), IDCol and LabelCol are positions.
	NoHeader bool
	// TopicFields are the fields of a TREC topic that make a query's text,
	// comma-separated (see ParseTopicFields; "" is "title").
	TopicFields string
	// Queries and Qrels are the SMART query file (the documents' format)
	// and a relevance file (TREC "query iteration doc level", or three
	// columns "query doc level"); both optional.
	Queries, Qrels string
}

func (o UserOptions) textCol() string  { return orDefault(o.TextCol, "text") }
func (o UserOptions) idCol() string    { return orDefault(o.IDCol, "id") }
func (o UserOptions) labelCol() string { return orDefault(o.LabelCol, "label") }

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// ReadUser reads the collection at path (see the Format constants). Its
// Name is the base name of path. Documents keep their file order; Classes
// are the distinct labels, sorted.
func ReadUser(path string, o UserOptions) (*Collection, error) {
	if fi, err := os.Stat(path); err == nil {
		if err := refuseSpecial(path, fi); err != nil {
			return nil, err
		}
	}
	format, err := UserFormat(path, o.Format)
	if err != nil {
		return nil, err
	}
	if o.NoHeader && format != FormatCSV && format != FormatTSV {
		return nil, fmt.Errorf("%s: --no-header applies to a CSV or TSV file, not to a %s input", path, format)
	}
	if format != FormatSMART && (o.Queries != "" || o.Qrels != "") {
		return nil, fmt.Errorf("%s: queries and qrels go with a SMART collection, not a %s one", path, format)
	}
	var c *Collection
	switch format {
	case FormatDir:
		c, err = readUserDir(path)
	case FormatCSV:
		c, err = readUserDelimited(path, ',', o)
	case FormatTSV:
		c, err = readUserDelimited(path, '\t', o)
	case FormatJSONL:
		c, err = readUserJSONL(path, o)
	case FormatTREC:
		c, err = readUserTREC(path)
	case FormatTRECTopics:
		var fields []string
		if fields, err = ParseTopicFields(o.TopicFields); err == nil {
			c, err = readUserTRECTopics(path, fields)
		}
	case FormatSMART:
		c, err = ReadSMARTFiles(path, o.Queries, o.Qrels)
	}
	if err != nil {
		return nil, err
	}
	if err := checkDocumentSizes(path, c); err != nil {
		return nil, err
	}
	c.Name = filepath.Base(path)
	c.Classes = classesOf(c.Docs)
	return c, nil
}

// statUserInput stats a user's input path, following symbolic links, and
// refuses anything but a regular file or a folder: a FIFO, a socket or a
// device cannot be read twice (the input is hashed, then read), and a
// FIFO with no writer would block the command, unkillable by SIGTERM,
// with nothing on the screen.
func statUserInput(path string) (fs.FileInfo, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	return fi, refuseSpecial(path, fi)
}

// refuseSpecial is the error of statUserInput for a path whose FileInfo
// is fi: nil for a regular file or a folder.
func refuseSpecial(path string, fi fs.FileInfo) error {
	if !fi.IsDir() && !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is %s, not a regular file or a folder; save the input to a file first", path, fileKind(fi.Mode()))
	}
	return nil
}

// fileKindOrDir names the type of a file that is not regular, a folder
// included, for an error.
func fileKindOrDir(m fs.FileMode) string {
	if m.IsDir() {
		return "a folder"
	}
	return fileKind(m)
}

// fileKind names the type of a file that is not regular, for an error.
func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	default:
		return "a special file (" + m.Type().String() + ")"
	}
}

// UserFormat returns the format ReadUser uses for path: format itself when
// given (checked), else the one path's form implies.
func UserFormat(path, format string) (string, error) {
	switch format {
	case FormatDir, FormatCSV, FormatTSV, FormatJSONL, FormatSMART, FormatTREC, FormatTRECTopics:
		return format, nil
	case "":
	default:
		return "", fmt.Errorf("unknown format %q (known: %s)", format, strings.Join(UserFormats, ", "))
	}
	fi, err := statUserInput(path)
	if err != nil {
		return "", err
	}
	if fi.IsDir() {
		return FormatDir, nil
	}
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return FormatCSV, nil
	case ".tsv", ".tab":
		return FormatTSV, nil
	case ".jsonl", ".ndjson":
		return FormatJSONL, nil
	}
	if smart, err := looksSMART(path); err != nil {
		return "", err
	} else if smart {
		return FormatSMART, nil
	}
	if trec, err := looksTREC(path); err != nil {
		return "", err
	} else if trec != "" {
		return trec, nil
	}
	return "", fmt.Errorf("%s: cannot tell the format (a directory, .csv, .tsv, .jsonl, a SMART file starting with \".I <n>\", a TREC file starting with <DOC> or <top>); give it with --format", path)
}

// looksSMART reports whether the first non-blank line of path is ".I <n>".
func looksSMART(path string) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	sc := bufio.NewScanner(skipBOM(f))
	sc.Buffer(make([]byte, 4096), 1<<20)
	for sc.Scan() {
		if t := strings.TrimSpace(sc.Text()); t != "" {
			tag, _, ok := smartMarker(t)
			return ok && tag == 'I', nil
		}
	}
	return false, nil
}

// classesOf returns the distinct non-empty classes of docs, sorted.
func classesOf(docs []Document) []string {
	set := map[string]bool{}
	for _, d := range docs {
		if d.Class != "" {
			set[d.Class] = true
		}
	}
	var out []string
	for c := range set {
		out = append(out, c)
	}
	sort.Strings(out)
	return out
}

// readUserDir reads a directory of text files (see FormatDir).
func readUserDir(root string) (*Collection, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, err
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s: not a directory (the dir format reads a folder of text files, one document per file)", root)
	}
	c := &Collection{}
	latin1, latin1Names := latin1Count{unit: "file"}, latin1Count{unit: "file name"}
	seen := map[string]string{}
	err = walkUserFiles(root, func(p string, fi fs.FileInfo) error {
		if fi.Size() > MaxRecordBytes {
			rel, _ := filepath.Rel(root, p)
			return fmt.Errorf("%s: file %q is %.1f MiB, more than the %d MiB one document may hold; split it into documents",
				root, Elide(filepath.ToSlash(rel), 60), float64(fi.Size())/(1<<20), maxRecordMiB)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if name, l1 := utf8OrLatin1([]byte(rel)); l1 { // ids and classes are text too
			latin1Names.add(fmt.Sprintf("%q", Elide(name, 60)))
			rel = name
		}
		if err := checkID(seen, rel, root); err != nil {
			return err
		}
		class := ""
		if i := strings.LastIndexByte(rel, '/'); i >= 0 {
			class = rel[:i]
		}
		text, l1 := utf8OrLatin1(b)
		if l1 {
			latin1.add(fmt.Sprintf("%q", Elide(rel, 60)))
		}
		c.Docs = append(c.Docs, Document{ID: rel, Text: text, Class: class})
		return nil
	}, func(p, why string) {
		rel, _ := filepath.Rel(root, p)
		c.Warnings = append(c.Warnings, fmt.Sprintf("%s: %q not read: %s", root, Elide(filepath.ToSlash(rel), 60), why))
	})
	if err != nil {
		return nil, err
	}
	if len(c.Docs) == 0 {
		return nil, fmt.Errorf("%s: no text files in the directory", root)
	}
	c.Warnings = append(c.Warnings, latin1Names.warnings(root)...)
	c.Warnings = append(c.Warnings, latin1.warnings(root)...)
	return c, nil
}

// walkUserFiles calls fn, in filepath.WalkDir order, for every file below
// root that a FormatDir collection is read from and UserSHA256 hashes:
// each regular file, and each symbolic link to a regular file (followed,
// wherever it points; fi describes the target). Files and directories
// whose name starts with "." are skipped, with all they hold. Any other
// entry is not read, and skip is told its path and why: a symbolic link
// to a directory (not followed, so a link cannot make the walk loop or
// read a tree twice), a link whose target is missing, a device, a named
// pipe or a socket. A root that is itself a symbolic link to a directory
// is walked.
func walkUserFiles(root string, fn func(p string, fi fs.FileInfo) error, skip func(p, why string)) error {
	start := root
	if fi, err := os.Lstat(root); err == nil && fi.Mode()&fs.ModeSymlink != 0 {
		start = root + string(filepath.Separator) // WalkDir does not follow a root link; a trailing separator does
	}
	return filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p != start && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		fi, err := os.Stat(p) // follows a link
		switch {
		case d.Type()&fs.ModeSymlink != 0 && err != nil:
			skip(p, "a symbolic link whose target cannot be read")
		case err != nil:
			return err
		case fi.Mode().IsRegular():
			return fn(p, fi)
		case d.Type()&fs.ModeSymlink != 0 && fi.IsDir():
			skip(p, "a symbolic link to a directory, not followed")
		case d.Type()&fs.ModeSymlink != 0:
			skip(p, "a symbolic link to something other than a regular file")
		default:
			skip(p, "not a regular file (a device, named pipe or socket)")
		}
		return nil
	})
}

// checkID records id as seen at where, failing on a repeat: ids are how a
// run's doc_ids.txt joins V's columns back to the documents, one id a
// line, so an id with a control character (newline, tab, carriage return
// or any other) is refused too. Spaces are allowed.
func checkID(seen map[string]string, id, where string) error {
	if id == "" {
		return fmt.Errorf("%s: empty id", where)
	}
	if strings.ContainsFunc(id, unicode.IsControl) {
		return fmt.Errorf("%s: id %q holds a control character (newline, tab or the like); an id must be one printable line", where, Elide(id, 40))
	}
	if first, dup := seen[id]; dup {
		return fmt.Errorf("%s: duplicate id %q (first at %s)", where, Elide(id, 40), first)
	}
	seen[id] = where
	return nil
}

// latin1Count counts the units (files, records, lines) of a user's file
// that were not valid UTF-8 and were decoded as Latin-1, as the registered
// readers do (utf8OrLatin1), for one warning naming the first.
type latin1Count struct {
	unit  string // "file", "record", "line"
	n     int
	first string // where the first one is: "line 3", a file's name
}

func (l *latin1Count) add(where string) {
	if l.n == 0 {
		l.first = where
	}
	l.n++
}

// warnings returns the warning about path, if any unit was decoded.
func (l *latin1Count) warnings(path string) []string {
	switch l.n {
	case 0:
		return nil
	case 1:
		return []string{fmt.Sprintf("%s: 1 %s was not valid UTF-8 and was decoded as Latin-1%s", path, l.unit, l.where(" (%s)"))}
	}
	return []string{fmt.Sprintf("%s: %d %ss were not valid UTF-8 and were decoded as Latin-1%s", path, l.n, l.unit, l.where(" (the first: %s)"))}
}

// where formats the first unit's place with format, or is "" when it was
// not recorded (the registered readers count lines only).
func (l *latin1Count) where(format string) string {
	if l.first == "" {
		return ""
	}
	return fmt.Sprintf(format, l.first)
}

// latin1String decodes s as Latin-1 (ISO 8859-1), each byte the code
// point of the same value, whether or not s is valid UTF-8: for the other
// fields of a record that utf8OrLatin1 found to be Latin-1.
func latin1String(s string) string {
	r := make([]rune, len(s))
	for i := 0; i < len(s); i++ {
		r[i] = rune(s[i])
	}
	return string(r)
}

// skipBOM returns a reader of r without the UTF-8 byte order mark some
// editors write at the start of a file: it is not text, and would
// otherwise become part of the first id, column name or record marker.
// A line longer than MaxRecordBytes fails the reader (lineLimitReader).
func skipBOM(r io.Reader) *bufio.Reader {
	br := bufio.NewReaderSize(newLineLimitReader(r), 1<<16)
	if b, err := br.Peek(3); err == nil && string(b) == "\ufeff" {
		br.Discard(3)
	}
	return br
}

// Plural is n with the noun in the number n asks for: "1 query",
// "2 queries".
func Plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// Elide shortens s to at most n runes, replacing its middle by "…", so that
// an error message quoting a record stays one short line.
func Elide(s string, n int) string {
	if utf8.RuneCountInString(s) <= n || n < 3 {
		return s
	}
	r := []rune(s)
	head := (n - 1) / 2
	tail := n - 1 - head
	return string(r[:head]) + "…" + string(r[len(r)-tail:])
}

// UserSHA256 is the SHA-256 identifying the content of path for caches and
// run keys: of the file itself, or for a directory of every regular,
// non-hidden file's relative path and content, in walk order.
func UserSHA256(path string) (string, error) {
	fi, err := statUserInput(path)
	if err != nil {
		return "", err
	}
	h := sha256.New()
	add := func(p string) error {
		f, err := os.Open(p)
		if err != nil {
			return err
		}
		defer f.Close()
		if _, err := io.Copy(h, f); err != nil {
			return fmt.Errorf("%s: %w", p, err)
		}
		return nil
	}
	if !fi.IsDir() {
		if err := add(path); err != nil {
			return "", err
		}
		return hex.EncodeToString(h.Sum(nil)), nil
	}
	err = walkUserFiles(path, func(p string, fi fs.FileInfo) error {
		rel, _ := filepath.Rel(path, p)
		fmt.Fprintf(h, "%d:%s %d\n", len(rel), filepath.ToSlash(rel), fi.Size())
		return add(p)
	}, func(string, string) {})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
