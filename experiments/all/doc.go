// Package all registers every experiment of topicmf: importing it (for
// its side effect) fills experiments.Default() with each paper's
// experiments. A paper's package registers its experiments from init; to
// add a paper, add one blank import line to all.go.
package all
