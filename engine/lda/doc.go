// Package lda implements Latent Dirichlet Allocation (Blei, Ng & Jordan,
// JMLR 2003) fitted by collapsed Gibbs sampling (Griffiths & Steyvers,
// "Finding scientific topics", PNAS 101 suppl. 1, 2004; cited as "G&S"
// below), the LDA baseline of the short-text TNMF paper (Section 5.2: "the
// Gibbs sampling based LDA implementation GibbsLDA++") and of the RLSI paper
// (Section 6.3).
//
// # Model and sampler (G&S Section 2)
//
// Each topic k has a distribution φ_k over the M terms, φ_k ~ Dirichlet(β);
// each document d has a topic mixture θ_d ~ Dirichlet(α); each token of d
// draws a topic z ~ θ_d and a term w ~ φ_z. Integrating φ and θ out, the
// sampler resamples every token's topic in turn from (G&S Eq. 5)
//
//	P(z_i = k | z_−i, w) ∝ (n_{d_i,k}^{−i} + α) · (n_{w_i,k}^{−i} + β) / (n_k^{−i} + Mβ)
//
// (the document-length denominator of Eq. 5 is the same for every k and is
// dropped), where the counts exclude token i. A sweep visits the tokens
// document by document, and within a document term by term in increasing
// term index, each term repeated as often as it occurs. The initial
// assignment draws every token's topic uniformly at random.
//
// # Estimates (G&S Eq. 6–7) and burn-in
//
// The returned factors average the per-sample estimates over the sweeps
// after BurnIn (within one chain, where topics keep their labels):
//
//	TermTopics φ_wk = mean_s (n_wk^s + β)/(n_k^s + Mβ)        (M×K, columns sum to 1)
//	DocTopics  θ_dk = (mean_s n_dk^s + α)/(n_d + Kα)           (N×K, rows sum to 1)
//
// Defaults: α = 50/K and β = 0.1 (G&S Section 2.2, and GibbsLDA++'s defaults;
// the TNMF paper does not state the values it used, saying only that the
// baselines' parameters were "tuned to best manually"), K = 20 (the RLSI
// paper's topic tables), 1000 sweeps of which the first half are burn-in.
//
// # Recorded objective
//
// Every EvalEvery sweeps (default 10) and after the last, the fit records
// −log p(w|z) of the current sample (G&S Eq. 2),
//
//	log p(w|z) = K·(lnΓ(Mβ) − M·lnΓ(β)) + Σ_k [Σ_w lnΓ(n_wk + β) − lnΓ(n_k + Mβ)],
//
// the quantity G&S plot to monitor the chain; other sweeps record their
// time with a NaN objective. A Gibbs chain's log-likelihood fluctuates: the
// objective is not monotone, and the fit always ends with Status
// IterationLimit (or Cancelled), never Converged. The factors have no exact
// zeros (α, β > 0), so no per-iteration sparsity is recorded.
//
// # Counts
//
// LDA models token counts. D must hold non-negative integers (raw term
// frequencies: on the command line --weighting tf --norm none); a
// non-integer entry is an error naming the entry, unless
// Options.RoundWeights (catalog parameter round=true) is set, in which case
// every entry is rounded to the nearest integer (half away from zero) and
// entries that round to zero are dropped. The same rule applies to
// folded-in documents. The sampler expands the counts into tokens, at most
// MaxTokens (2³¹ − 1) of them in D, or in one folded-in document (the
// fold-in sampler holds one document at a time, so a batch may hold more):
// more is an error naming the total and the entry where the counts pass
// the bound, before anything is allocated. Within it, what the sampler
// holds must fit in the memory the process may use (engine.Memory): 8
// bytes a token, and for Fit 16 bytes × (M + N)·K of counts and estimates;
// the error names both byte counts and the limit.
//
// # Determinism and parallelism
//
// The collapsed sampler is inherently sequential (every draw depends on the
// counts left by the previous one), so the sweeps run on one goroutine with
// one PCG stream (engine.NewRand(Seed)): the same seed gives the same bits
// for any GOMAXPROCS. The pool parallelizes only the work around it:
// log p(w|z) (fixed term blocks, compensated block sums added in block
// order), the accumulation of the estimates and folding-in (one row per
// task), none of which changes a bit with the number of workers.
//
// # Folding-in
//
// A new document q is folded in by Gibbs sampling its own tokens with the
// topic-word distributions fixed at the fitted φ (the "inference for new
// data" of GibbsLDA++, with φ in place of the training counts):
//
//	P(z_i = k | z_−i) ∝ (n_{q,k}^{−i} + α) · φ_{w_i,k},
//
// from a uniformly random assignment, for FoldInIters sweeps (default 100),
// θ_q being the average over the sweeps after FoldInBurnIn (default half)
// of (n_{q,k} + α)/(n_q + Kα). Each document's stream is seeded from Seed
// and the document's content, so folding-in is a deterministic function of
// the document. A cancelled context stops a document's sampler between
// sweeps (as it stops the fit), and FoldIn returns the context's error. Terms never seen in training still have φ_wk = β/(n_k + Mβ)
// and take part, as in the model.
//
// # Example
//
// The package example (example_test.go; pkg.go.dev and `go doc -http`
// show it, and `go test` runs it) fits raw counts drawn from planted topics (engine/synthetic),
// compares φ with the planted topics and folds the documents in.
package lda
