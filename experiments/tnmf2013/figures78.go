package tnmf2013

import (
	"strconv"
	"strings"

	"github.com/topicmf/topicmf/experiments"
)

func init() { experiments.Register(Figures78()) }

// Figures78 is the experiment "tnmf2013/figures7-8": classification
// accuracy of a linear SVM on the document-topic features against K.
func Figures78() *experiments.Experiment {
	acc := []string{"accuracy"}
	return &experiments.Experiment{
		ID:      "tnmf2013/figures7-8",
		Title:   "Document classification on the topic representations: linear-SVM accuracy against K",
		Paper:   paperRef("§5.5, Figures 7 and 8"),
		Version: "1",

		Datasets:   clusterSets,
		Methods:    shortTextMethods(),
		Grid:       map[string][]string{"k": kGrid},
		TaskParams: []string{"subsample"},
		Replicates: 10,
		Seed:       20130503,
		Task:       clusterTask(true),

		Metrics: []experiments.MetricDef{
			{Name: "accuracy", Definition: "mean test accuracy over " + strconv.Itoa(HoldoutRepeats) + " random 4:1 train/test splits (2 with --quick) of a one-vs-rest L2-regularized L2-loss linear SVM (metrics/classify, LIBLINEAR's dual solver, C = 1, bias 1) on the documents' topic vectors scaled to unit length"},
			{Name: "accuracy_std_splits", Definition: "standard deviation of the accuracy over those splits"},
			{Name: "nmi", Definition: "clustering NMI of the same fit (as in tnmf2013/figures5-6)"},
		},
		Tables: []experiments.Table{
			{
				Name: "accuracy-searchsnippets", Title: "Classification accuracy on SearchSnippets (Figure 7, the paper's Title data)",
				Rows: []string{experiments.ColMethod, "k"}, Metrics: []string{"accuracy", "nmi"},
				Where: map[string]string{experiments.ColDataset: SearchSnippets},
			},
			{
				Name: "accuracy-stackoverflow", Title: "Classification accuracy on StackOverflow (Figure 8, the paper's Question data)",
				Rows: []string{experiments.ColMethod, "k"}, Metrics: []string{"accuracy", "nmi"},
				Where: map[string]string{experiments.ColDataset: StackOverflow},
			},
		},
		Figures: []experiments.Figure{
			{
				Name: "figure7-accuracy", Title: "Classification accuracy against K on SearchSnippets (the paper's Title data)",
				Kind: experiments.Line, Source: experiments.FromMetrics, X: "k", Y: "accuracy",
				Series: []string{experiments.ColMethod}, Where: map[string]string{experiments.ColDataset: SearchSnippets},
				ErrorBars: true, XLabel: "K (topics)", YLabel: "accuracy",
			},
			{
				Name: "figure8-accuracy", Title: "Classification accuracy against K on StackOverflow (the paper's Question data)",
				Kind: experiments.Line, Source: experiments.FromMetrics, X: "k", Y: "accuracy",
				Series: []string{experiments.ColMethod}, Where: map[string]string{experiments.ColDataset: StackOverflow},
				ErrorBars: true, XLabel: "K (topics)", YLabel: "accuracy",
			},
		},
		Claims: []experiments.Claim{
			{
				Statement: "TNMF_E outperforms the baselines in accuracy on both data sets (mean higher than every baseline's at every K)",
				Source:    "§5.5, first conclusion",
				Judge:     judgeBeatsAll(TNMFE, acc),
			},
			{
				Statement: "TNMF_I outperforms the baselines in accuracy on StackOverflow (the Question substitute)",
				Source:    "§5.5, second conclusion",
				Judge:     judgeBeatsAllOn(TNMFI, acc, StackOverflow),
			},
			{
				Statement: "TNMF_E is more accurate than TNMF_I on SearchSnippets at every K",
				Source:    "§5.5: \"The performance of TNMF_I is not as good as TNMF_E in classification\"",
				Judge:     judgeBeats(TNMFE, TNMFI, SearchSnippets, "accuracy"),
			},
			{
				Statement: "TNMF_E is more accurate than TNMF_I on StackOverflow at every K",
				Source:    "§5.5: \"The performance of TNMF_I is not as good as TNMF_E in classification\"",
				Judge:     judgeBeats(TNMFE, TNMFI, StackOverflow, "accuracy"),
			},
			{
				Statement: "GNMF does not improve on NMF_E in accuracy on SearchSnippets (NMF_E's mean higher at every K)",
				Source:    "§5.5, third conclusion (Title data)",
				Judge:     judgeBeats(NMFE, GNMF, SearchSnippets, "accuracy"),
			},
			{
				Statement: "SymNMF does not improve on NMF_E in accuracy on SearchSnippets (NMF_E's mean higher at every K)",
				Source:    "§5.5, third conclusion (Title data)",
				Judge:     judgeBeats(NMFE, SymNMF, SearchSnippets, "accuracy"),
			},
		},
		Quick: quickShortText,
		Protocol: strings.Replace(shortTextProtocol, "Each document goes to its highest-weighted topic (§5.4; ties and all-zero rows to the lowest index). ", "", 1) +
			" Each fit's document-topic matrix (rows scaled to unit length: the methods' scales differ and the paper does not say how it fed LIBLINEAR) is split 4:1 at random " +
			strconv.Itoa(HoldoutRepeats) + " times (§5.5); the accuracy is the mean over splits, and tables show mean ± standard deviation over the 10 fits. " +
			"Thresholds of the claims (strict comparison of means) were fixed before running.",
		Substitutes: strings.Replace(substitutes, "sttm-tweet (2,472 tweets, 89 query clusters) for Tweet, ", "", 1) + " Tweet and Biomedical are not used here.",
	}
}
