package topicmf_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/topicmf/topicmf/datasets"
	"github.com/topicmf/topicmf/datasets/text"
	"github.com/topicmf/topicmf/engine"
	"github.com/topicmf/topicmf/engine/catalog"
	"github.com/topicmf/topicmf/experiments"
	_ "github.com/topicmf/topicmf/experiments/all" // registers the papers' experiments
	"github.com/topicmf/topicmf/experiments/frame"
	"github.com/topicmf/topicmf/experiments/store"
	"github.com/topicmf/topicmf/metrics/topics"
)

// posts is a tiny collection of two themes, space flight and baking, as
// datasets.ReadUser would read it from a folder, a CSV or a JSON Lines file.
func posts() *datasets.Collection {
	texts := []string{
		"The rocket launch put the satellite into orbit around the planet.",
		"Astronauts on the space station watched the planet turn below the orbit.",
		"A second rocket stage failed before the satellite reached orbit.",
		"The space agency plans a launch to the planet with a new rocket.",
		"The station crew repaired the satellite during a space walk in orbit.",
		"Knead the dough, let the bread rise, then bake it in a hot oven.",
		"Butter, flour and sugar make the dough for a sweet cake.",
		"Bake the cake in the oven until the crust of the bread turns golden.",
		"Flour, water and yeast: the dough rises overnight before baking bread.",
		"Sugar and butter cream for the cake; the oven is hot at the start.",
	}
	col := &datasets.Collection{Name: "posts"}
	for i, t := range texts {
		col.Docs = append(col.Docs, datasets.Document{ID: fmt.Sprintf("post%02d", i+1), Text: t})
	}
	return col
}

// fit fits the named family on c with params (strings, as on the command
// line) and returns the model and the recorded iterations.
func fit(name string, c *engine.Corpus, params catalog.Params) (engine.Model, *engine.Recorder) {
	method, err := catalog.New(name, params)
	if err != nil {
		panic(err)
	}
	rec := engine.NewRecorder()
	model, _, err := method.Fit(context.Background(), c, rec)
	if err != nil {
		panic(err)
	}
	return model, rec
}

// Build a corpus from text with the default pipeline: lower-cased words
// of 2–25 letters, the SMART stop list (embedded in the binary), terms in
// at least two documents and at most 95 % of them, l2-normalized tf-idf.
func Example_corpus() {
	c, rep, err := text.Build(posts(), text.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Terms(), "terms,", c.Docs(), "documents")
	fmt.Println(strings.Join(rep.Warnings, "\n"))
	fmt.Println(strings.Join(c.Vocab, " "))
	// Output:
	// 16 terms, 10 documents
	// vocabulary: 16 of 42 terms kept, 38% of the tokens pruned (26 terms below MinDF 2, 0 above MaxDF 0.95, 0 beyond MaxVocab 0)
	// bake bread butter cake dough flour hot launch orbit oven planet rocket satellite space station sugar
}

// Fit NMF (Lee & Seung's multiplicative updates) with K = 2 and print each
// topic's top terms; catalog.New takes the parameters "topicmf models nmf"
// lists.
func Example_nmf() {
	c, _, _ := text.Build(posts(), text.Options{})
	model, _ := fit("nmf", c, catalog.Params{"k": "2", "seed": "1"})
	for k, terms := range topics.TopTerms(model.TermTopics(), c.Vocab, 5) {
		fmt.Printf("topic %d: %s\n", k, termList(terms))
	}
	// Output:
	// topic 0: satellite orbit rocket planet space
	// topic 1: bread oven dough bake cake
}

// Fit RLSI (Wang et al., SIGIR 2011): ℓ1-regularized topics are sparse, so
// each topic keeps only a few terms. The λ's are read relative to the
// data's scale, as "topicmf fit" does by default.
func Example_rlsi() {
	c, _, _ := text.Build(posts(), text.Options{})
	model, _ := fit("rlsi", c, catalog.Params{"k": "2", "seed": "1",
		"lambda-scale": "relative", "init-scale": "balanced", "lambda1": "0.05"})
	U := model.TermTopics()
	for k, terms := range topics.TopTerms(U, c.Vocab, 3) {
		fmt.Printf("topic %d: %s\n", k, termList(terms))
	}
	fmt.Printf("AvgComp %.2f (fraction of non-zero term weights)\n", topics.AvgComp(U))
	// Output:
	// topic 0: station launch space
	// topic 1: bread oven dough
	// AvgComp 0.50 (fraction of non-zero term weights)
}

// Fold new documents into a fitted model: the vectorizer weights their
// text as the training text was weighted, and FoldIn solves for their
// topic vectors as the family's paper defines.
func Example_foldIn() {
	c, vec, _, err := text.Fit(posts(), text.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	model, _ := fit("nmf", c, catalog.Params{"k": "2", "seed": "1"})
	top := topics.TopTerms(model.TermTopics(), c.Vocab, 2)
	news := []string{
		"The new rocket carries a satellite to orbit.",
		"A cake with butter and sugar, baked in the oven.",
	}
	V, err := model.FoldIn(context.Background(), vec.Transform(news))
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, doc := range news {
		k := 0
		if V.At(i, 1) > V.At(i, 0) {
			k = 1
		}
		fmt.Printf("%q -> topic %d (%s)\n", doc, k, termList(top[k]))
	}
	// Output:
	// "The new rocket carries a satellite to orbit." -> topic 0 (satellite orbit)
	// "A cake with butter and sugar, baked in the oven." -> topic 1 (bread oven)
}

// The iterations a fit recorded, as a go-gota dataframe (for a notebook
// or a plot): one row per iteration, the objective and its terms, the
// factors' sparsity.
func Example_iterations() {
	c, _, _ := text.Build(posts(), text.Options{})
	_, rec := fit("nmf", c, catalog.Params{"k": "2", "seed": "1", "iters": "25", "tol": "0"})
	df := frame.Iterations(rec)
	fmt.Println(df.Nrow(), "iterations")
	fmt.Println(strings.Join(df.Names(), " "))
	obj := df.Col("objective").Float()
	fmt.Println("objective decreased:", obj[len(obj)-1] < obj[0])
	// Output:
	// 25 iterations
	// iter seconds objective loss sparsity_U sparsity_V
	// objective decreased: true
}

// Run a registered experiment in quick mode, as "topicmf run
// foundation/nmf-synthetic --quick" does: the runner expands its grid
// into jobs, stores each run, and the claims are judged on the results.
func Example_experiment() {
	exps, err := experiments.Get("foundation/nmf-synthetic")
	if err != nil {
		fmt.Println(err)
		return
	}
	dir, err := os.MkdirTemp("", "topicmf-example")
	if err != nil {
		fmt.Println(err)
		return
	}
	defer os.RemoveAll(dir)
	st, err := store.Open(dir)
	if err != nil {
		fmt.Println(err)
		return
	}
	e := exps[0]
	res, err := (&experiments.Runner{Store: st, Quick: true}).Run(context.Background(), e)
	if err != nil {
		fmt.Println(err)
		return
	}
	for i, v := range res.Verdicts() {
		fmt.Printf("%s: %s\n", e.Claims[i].Statement, v.Outcome)
	}
	// Output:
	// The NMF objective never increases from one iteration to the next: held
	// At the planted K = 15, NMF recovers the planted topics with mean matched cosine ≥ 0.90: held
}

// termList is the terms of a topic, space-separated.
func termList(terms []topics.Term) string {
	s := make([]string, len(terms))
	for i, t := range terms {
		s[i] = t.Term
	}
	return strings.Join(s, " ")
}
