package main

import (
	"context"
	"io"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/sparse"
	"github.com/topicmf/topicmf/internal/realdata"
	"github.com/topicmf/topicmf/metrics/cluster"

	"github.com/topicmf/topicmf/experiments/workflow"
)

// Tests of issue 25 from the command line: a TREC collection end to end,
// clustering numbers for a headerless labelled CSV, --alpha auto on
// Cranfield, the LDA progress line and trace.

// TestTRECCollectionRanksAndEvaluates fits a hand-written TREC SGML
// collection, ranks it for a TREC topic file with BM25 alone (--alpha 0)
// and evaluates it against TREC qrels. By hand (BM25 scores 0 for a
// document without the query's term; ties go to the larger docno, as
// trec_eval breaks them):
//
//	topic 51 "rocket": AP-1 (tf 3) > AP-3 (tf 1) > WSJ-5 = WSJ-4 = AP-2 (0)
//	  relevant AP-3 (rank 2), AP-2 (rank 5): AP = (1/2 + 2/5)/2 = 0.45
//	topic 52 "orbit": AP-2 (3 tokens) > AP-3 (4) > WSJ-4 (5), all tf 1
//	  (BM25 favours the shorter document), then WSJ-5, AP-1 (0)
//	  relevant WSJ-4 (rank 3), AP-1 (rank 5): AP = (1/3 + 2/5)/2 = 0.36667
//	MAP = (0.45 + 0.36667)/2 = 0.40833
func TestTRECCollectionRanksAndEvaluates(t *testing.T) {
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	docs := write("collection.sgml", `<DOC>
<DOCNO> AP-1 </DOCNO>
<HEAD>Rocket launch</HEAD>
<TEXT>
rocket rocket engine test
</TEXT>
</DOC>
<DOC>
<DOCNO> AP-2 </DOCNO>
<TEXT>orbit station crew</TEXT>
</DOC>
<DOC>
<DOCNO> AP-3 </DOCNO>
<TEXT>rocket fuel tank orbit</TEXT>
</DOC>
<DOC>
<DOCNO> WSJ-4 </DOCNO>
<HL>Markets</HL>
<TEXT>stocks bonds orbit market</TEXT>
</DOC>
<DOC>
<DOCNO> WSJ-5 </DOCNO>
<TEXT>stocks bonds market rally</TEXT>
</DOC>
`)
	topics := write("topics", `<top>
<num> Number: 051
<title> Topic: rocket
<desc> Description:
Launch vehicles.
</top>
<top>
<num> Number: 052
<title> Topic: orbit
<desc> Description:
Satellites.
</top>
`)
	qrels := write("qrels", "51 0 AP-3 1\n51 0 AP-2 1\n51 0 AP-1 0\n52 0 WSJ-4 1\n52 0 AP-1 1\n")
	out := filepath.Join(dir, "results")
	run := fitRun(t, "--model", "nmf", "--k", "2", "--data", docs, "--min-df", "1", "--out", out, "--quiet")
	runFile := filepath.Join(dir, "run.txt")
	stdout, stderr, err := runTopicmf(context.Background(), "rank", run, "--queries", topics, "--qrels", qrels,
		"--alpha", "0", "--output", runFile, "--out", out, "--quiet")
	if err != nil {
		t.Fatalf("rank: %v\n%s", err, stderr)
	}
	if stderr != "" {
		t.Errorf("rank printed warnings:\n%s", stderr)
	}
	wantMAP := (0.45 + (1.0/3+2.0/5)/2) / 2
	if got := trecValue(t, stdout, "map"); math.Abs(got-wantMAP) > 5e-5 {
		t.Errorf("MAP = %.4f, by hand %.5f\n%s", got, wantMAP, stdout)
	}
	ranked := readFile(t, runFile)
	for _, want := range []string{"51 Q0 AP-1 1 ", "51 Q0 AP-3 2 ", "51 Q0 AP-2 5 ", "52 Q0 AP-2 1 ", "52 Q0 WSJ-4 3 ", "52 Q0 AP-1 5 "} {
		if !strings.Contains(ranked, want) {
			t.Errorf("the run lacks %q:\n%s", want, ranked)
		}
	}
	// Without --alpha, rank uses the default α measured in
	// docs/pipeline.md (0.25), not the former 0.5.
	if _, _, err := runTopicmf(context.Background(), "rank", run, "--queries", topics, "--output", filepath.Join(dir, "default.txt"), "--out", out, "--quiet"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := runTopicmf(context.Background(), "rank", run, "--queries", topics, "--alpha", "0.25", "--output", filepath.Join(dir, "quarter.txt"), "--out", out, "--quiet"); err != nil {
		t.Fatal(err)
	}
	if readFile(t, filepath.Join(dir, "default.txt")) != readFile(t, filepath.Join(dir, "quarter.txt")) {
		t.Error("rank's default run differs from --alpha 0.25's")
	}
	// eval of the written run agrees.
	stdout, _, err = runTopicmf(context.Background(), "eval", "--qrels", qrels, "--run", runFile)
	if err != nil || math.Abs(trecValue(t, stdout, "map")-wantMAP) > 5e-5 {
		t.Errorf("eval: %v\n%s", err, stdout)
	}
	// Judgments naming documents by position: one warning says so.
	byPosition := write("qrels-pos", "51 0 3 1\n51 0 2 1\n52 0 4 1\n52 0 1 1\n")
	_, stderr, err = runTopicmf(context.Background(), "rank", run, "--queries", topics, "--qrels", byPosition,
		"--output", runFile, "--out", out, "--quiet")
	if err != nil {
		t.Fatal(err)
	}
	if want := "topicmf rank: warning: qrels: 4 of the 4 judged documents are not in the collection (the first: 1, 2, 3, 4); no judged document is in the collection"; !strings.Contains(stderr, want) {
		t.Errorf("judgments by position: stderr\n%s\nlacks %q", stderr, want)
	}
}

// trecValue is the "all" value of a measure in trec_eval output.
func trecValue(t *testing.T, out, measure string) float64 {
	t.Helper()
	m := regexp.MustCompile(`(?m)^` + regexp.QuoteMeta(measure) + `\s+all\s+(\S+)$`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no %s line in\n%s", measure, out)
	}
	v, err := strconv.ParseFloat(m[1], 64)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// TestHeaderlessCSVClusteringNumbers fits a headerless CSV with two text
// columns and a label column by position; fit prints the labels' NMI (and
// purity, ARI), writes them to metrics.csv, and the NMI is exactly
// metrics/cluster's on the run's argmax topics (V.mtx) and labels.txt.
// eval --labels computes the same numbers for the run.
func TestHeaderlessCSVClusteringNumbers(t *testing.T) {
	dir := t.TempDir()
	var b strings.Builder
	words := [][]string{{"orbit", "launch", "rocket", "nasa", "moon", "satellite"}, {"game", "team", "score", "season", "player", "coach"}, {"recipe", "cook", "flavor", "dinner", "sauce", "oven"}}
	names := []string{"space", "sport", "food"}
	for i := range 45 {
		k := i % 3
		w := words[k]
		// Every fourth document is written in the next class's words, so
		// that the numbers are not all 1.
		if i%4 == 0 {
			w = words[(k+1)%3]
		}
		title := w[i%6] + " " + w[(i+1)%6]
		desc := w[(i+2)%6] + " " + w[(i+3)%6] + " " + w[(i+4)%6]
		b.WriteString(names[k] + ",\"" + title + "\",\"" + desc + "\"\n")
	}
	data := filepath.Join(dir, "news.csv")
	os.WriteFile(data, []byte(b.String()), 0o644)
	out := filepath.Join(dir, "results")
	stdout, stderr, err := runTopicmf(context.Background(), "fit", "--model", "nmf", "--k", "3", "--data", data,
		"--no-header", "--text-col", "2,3", "--label-col", "1", "--out", out, "--quiet")
	if err != nil {
		t.Fatalf("fit: %v\n%s", err, stderr)
	}
	m := regexp.MustCompile(`labels: 45 documents in 3 classes, argmax topic as cluster: purity (\S+), NMI (\S+), ARI (\S+)\n`).FindStringSubmatch(stdout)
	if m == nil {
		t.Fatalf("fit printed no clustering numbers:\n%s", stdout)
	}
	run := printedDir(t, stdout, "wrote: ")
	v, err := sparse.ReadDenseMMFile(filepath.Join(run, "V.mtx"))
	if err != nil {
		t.Fatal(err)
	}
	labels, err := workflow.ReadLines(filepath.Join(run, "labels.txt"), "label")
	if err != nil {
		t.Fatal(err)
	}
	k, n := v.Dims()
	pred := cluster.ArgmaxTopics(n, func(j int) []float64 {
		col := make([]float64, k)
		for t := range k {
			col[t] = v.At(t, j)
		}
		return col
	})
	ids := map[string]int{}
	truth := make([]int, n)
	for j, l := range labels {
		if _, ok := ids[l]; !ok {
			ids[l] = len(ids)
		}
		truth[j] = ids[l]
	}
	nmi, err := cluster.NMI(truth, pred)
	if err != nil {
		t.Fatal(err)
	}
	if m[2] != strconv.FormatFloat(nmi, 'g', -1, 64) {
		t.Errorf("printed NMI %s, metrics/cluster's %v", m[2], nmi)
	}
	if nmi <= 0 || nmi >= 1 {
		t.Errorf("NMI %v: the planted overlap should give 0 < NMI < 1", nmi)
	}
	metrics, err := readMetricsCSV(filepath.Join(run, "metrics.csv"))
	if err != nil {
		t.Fatal(err)
	}
	if metrics["nmi"] != m[2] || metrics["purity"] != m[1] || metrics["ari"] != m[3] || metrics["labelled_documents"] != "45" {
		t.Errorf("metrics.csv %v, printed %q", metrics, m[1:])
	}
	// eval --labels on the run: the same numbers, from labels.txt or by id.
	byID := filepath.Join(dir, "labels.tsv")
	var lb strings.Builder
	for j, l := range labels {
		lb.WriteString(strconv.Itoa(j+1) + "\t" + l + "\n")
	}
	os.WriteFile(byID, []byte(lb.String()), 0o644)
	for _, lf := range []string{filepath.Join(run, "labels.txt"), byID} {
		stdout, stderr, err = runTopicmf(context.Background(), "eval", "--labels", lf, "--run", run)
		if err != nil {
			t.Fatalf("eval --labels: %v\n%s", err, stderr)
		}
		if !regexp.MustCompile(`(?m)^nmi\s+` + regexp.QuoteMeta(m[2]) + `$`).MatchString(stdout) {
			t.Errorf("eval --labels %s:\n%s\nwant nmi %s", lf, stdout, m[2])
		}
	}
}

// TestAlphaAutoCranfield ranks Cranfield's 225 queries (read as a user
// would: cran.qry, numbered by position as cranqrel numbers them, and
// cranqrel, its layout told from the file) with --alpha auto on an nmf fit
// (K = 10, fit's defaults). The held-out MAP, the chosen α and BM25's MAP
// are pinned to what this code measured; they equal the nmf K=10 row of the
// evidence table in docs/pipeline.md (bench/cmd/alphaevidence), computed
// by experiments/retrieval.
func TestAlphaAutoCranfield(t *testing.T) {
	if testing.Short() {
		t.Skip("fits Cranfield")
	}
	data := realdata.Dir(t, "cranfield/cran.tar.gz")
	tmp := t.TempDir()
	for _, member := range []string{"cran.qry", "cranqrel"} {
		err := datasets.EachTarGzMember(filepath.Join(data, "cranfield/cran.tar.gz"), func(name string, r io.Reader) error {
			if filepath.Base(name) != member {
				return nil
			}
			b, err := io.ReadAll(r)
			if err == nil {
				err = os.WriteFile(filepath.Join(tmp, member), b, 0o644)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(tmp, "results")
	run := fitRun(t, "--model", "nmf", "--k", "10", "--data", "cranfield", "--data-dir", data, "--corpus-cache", "none", "--out", out, "--quiet")
	args := []string{"rank", run, "--queries", filepath.Join(tmp, "cran.qry"), "--query-ids", "position",
		"--qrels", filepath.Join(tmp, "cranqrel"), "--alpha", "auto", "--output", filepath.Join(tmp, "run"), "--out", out, "--data-dir", data, "--quiet"}
	stdout, stderr, err := runTopicmf(context.Background(), args...)
	if err != nil {
		t.Fatalf("rank: %v\n%s", err, stderr)
	}
	for _, want := range []string{
		"topicmf rank: --alpha auto: 5-fold cross-validation over 225 judged queries (seed 1)",
		"topicmf rank:   fold 1: 45 queries, α = 0.3",
		"topicmf rank:   held-out MAP 0.3111 (BM25 alone, α = 0: 0.2932); α chosen on all judged queries: 0.3 (MAP 0.3141)",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if got := trecValue(t, stdout, "map"); got != 0.3111 {
		t.Errorf("held-out MAP %.4f, measured 0.3111", got)
	}
	// The same command gives the same bits.
	again, _, err := runTopicmf(context.Background(), args...)
	if err != nil || again != stdout {
		t.Errorf("a second run differs: %v", err)
	}
	// Without --query-ids position, cran.qry's .I numbers do not match
	// cranqrel's positions: a warning says what to do.
	_, stderr, err = runTopicmf(context.Background(), "rank", run, "--queries", filepath.Join(tmp, "cran.qry"),
		"--qrels", filepath.Join(tmp, "cranqrel"), "--output", filepath.Join(tmp, "run"), "--out", out, "--data-dir", data, "--quiet")
	if err != nil || !strings.Contains(stderr, "topicmf rank: warning: qrels: the judged query ids are all positions 1..225 but not all the queries' ids: if the qrels number the queries by position (as Cranfield's cranqrel does), give --query-ids position") {
		t.Errorf("cran.qry by .I number: %v\n%s", err, stderr)
	}
	if _, _, err := runTopicmf(context.Background(), "rank", run, "--queries", filepath.Join(tmp, "cran.qry"), "--alpha", "auto", "--out", out); err == nil ||
		!strings.Contains(err.Error(), "--alpha auto chooses α on judged queries: give --qrels") {
		t.Errorf("--alpha auto without --qrels: %v", err)
	}
}

// TestLastObjective: an iteration without an objective (NaN, as LDA
// reports between evaluations) shows the last evaluated one with its
// iteration, or that none is yet; never NaN.
func TestLastObjective(t *testing.T) {
	var l lastObjective
	for _, tc := range []struct {
		it   engine.Iteration
		want string
	}{
		{engine.Iteration{Iter: 1, Objective: math.NaN()}, "objective not evaluated yet"},
		{engine.Iteration{Iter: 10, Objective: 1234.5}, "objective 1234.5"},
		{engine.Iteration{Iter: 11, Objective: math.NaN()}, "objective 1234.5 (at iteration 10)"},
	} {
		if got := l.text(tc.it); got != tc.want {
			t.Errorf("iteration %d: %q, want %q", tc.it.Iter, got, tc.want)
		}
	}
}

// TestLDATraceEmptyCells: iterations.csv of an LDA fit leaves the
// objective empty where it was not evaluated (eval-every 10), and holds no
// "NaN".
func TestLDATraceEmptyCells(t *testing.T) {
	dir := plantedFiles(t)
	run := fitRun(t, "--model", "lda", "--k", "3", "--iters", "20", "--data", filepath.Join(dir, "docs.csv"), "--text-col", "body",
		"--out", filepath.Join(t.TempDir(), "results"), "--quiet")
	trace := readFile(t, filepath.Join(run, "iterations.csv"))
	if strings.Contains(trace, "NaN") {
		t.Errorf("iterations.csv holds NaN:\n%s", trace)
	}
	lines := strings.Split(strings.TrimSpace(trace), "\n")
	if len(lines) != 21 {
		t.Fatalf("%d lines, want a header and 20 iterations", len(lines))
	}
	for i, l := range lines[1:] {
		f := strings.Split(l, ",")
		evaluated := (i+1)%10 == 0
		if (f[2] != "") != evaluated {
			t.Errorf("iteration %d: objective %q (evaluated every 10)", i+1, f[2])
		}
	}
}
