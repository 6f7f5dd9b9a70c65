// Package workflow is the user's workflow with a topic model, written once
// for every front end (the topicmf command and the notebook API):
//
//	Resolve an input    a registered collection, a folder of text files, a
//	                    CSV/TSV, JSONL or SMART file, or a Matrix Market
//	                    term-document matrix (Input, Resolve)
//	build its corpus    through the text pipeline of datasets/text (Build)
//	fit a family        of engine/catalog with the declared defaults,
//	                    front-end defaults included (NewMethod)
//	write a run         a results-store directory with the factors, top
//	                    terms, trace and what restoring needs (FitRun)
//	score it            top terms and topic quality of a stored fit, a run
//	                    of their own, so other scores never refit (ScoreRun)
//	read it back        and restore its model (OpenRun, Restore)
//	fold in new text    with the run's own vectorizer (Run.Transform)
//	rank documents      by s = α·s_topic + (1 − α)·s_term (Ranker)
//	evaluate a ranking  against relevance judgments read by ReadQrels
//	                    (TREC or SMART layout) with metrics/ir.Evaluate
//
// Front ends add flags, printing and progress display, nothing else: the
// defaults, the checks and the files written are this package's, so that a
// fit gives the same bits from the command line, a notebook or a Go program.
package workflow
