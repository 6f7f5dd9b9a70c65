// Package all registers every experiment of topicmf: importing it (for
// its side effect) fills the default registry (experiments.All, Get) with
// each paper's experiments. A paper's package registers its experiments
// from init (experiments.Register); to add a paper, add one blank import
// line to all.go.
package all
