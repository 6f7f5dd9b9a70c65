// Package foundation holds the harness's own sanity experiments, which
// check a model family against known ground truth before any paper's
// artifact relies on it. They register into the default registry
// (experiments.Register) from init (import experiments/all).
//
// foundation/nmf-synthetic fits NMF (engine/nmf, the multiplicative
// updates of Lee & Seung that GMF's §5 builds Group NMF on) to the small
// planted-topic corpus datasets/synthetic.Default() for K around the
// planted number of topics, three replicates each, and checks two things:
// that the objective ‖D − UV‖²_F never increases between iterations
// (GMF §5.1, Proposition 1, the monotonicity the multiplicative updates
// guarantee), and that the planted topics are recovered (mean matched
// cosine, synthetic.MatchTopics). The figure plots the objective against
// the iteration; the table gives recovery, final objective and AvgComp per
// K. Both claims are judged from the stored numbers with thresholds fixed
// in advance and stated in the claim.
package foundation
