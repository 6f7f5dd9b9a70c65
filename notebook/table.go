package notebook

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// ShowTable displays a dataframe inline as a Markdown table with every
// row and column (gota's own String elides columns that do not fit a
// terminal). Floats are printed with 6 significant digits; NaN as "–".
func ShowTable(df dataframe.DataFrame) {
	showMarkdown(TableMarkdown(df))
}

// TableMarkdown is df as a Markdown table (see ShowTable).
func TableMarkdown(df dataframe.DataFrame) string {
	if df.Err != nil {
		return "error: " + df.Err.Error()
	}
	var b strings.Builder
	names := df.Names()
	b.WriteString("|")
	for _, n := range names {
		b.WriteString(" " + cell(n) + " |")
	}
	b.WriteString("\n|")
	for _, n := range names {
		if t := df.Col(n).Type(); t == series.Int || t == series.Float {
			b.WriteString(" ---: |")
		} else {
			b.WriteString(" --- |")
		}
	}
	b.WriteString("\n")
	for r := 0; r < df.Nrow(); r++ {
		b.WriteString("|")
		for c := range names {
			e := df.Elem(r, c)
			var s string
			switch {
			case e.IsNA():
				s = "–"
			case e.Type() == series.Float:
				s = strconv.FormatFloat(e.Float(), 'g', 6, 64)
			default:
				s = e.String()
			}
			b.WriteString(" " + cell(s) + " |")
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "\n%d rows × %d columns\n", df.Nrow(), df.Ncol())
	return b.String()
}

func cell(s string) string {
	return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s)
}

// Printf shows formatted text inline as a block of preformatted text, in
// the same channel as the tables and figures, so that it keeps its place
// among them: gonb sends standard output separately, and a fmt.Printf can
// appear after a table shown later. Without DisplayMarkdown it prints to
// standard output.
func Printf(format string, args ...any) {
	s := strings.TrimRight(fmt.Sprintf(format, args...), "\n")
	if DisplayMarkdown == nil {
		fmt.Println(s)
		return
	}
	DisplayMarkdown("```text\n" + s + "\n```")
}
