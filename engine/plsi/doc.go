// Package plsi implements Probabilistic Latent Semantic Indexing (Hofmann,
// "Probabilistic Latent Semantic Indexing", SIGIR 1999; cited as "PLSI"
// below), the probabilistic baseline of the RLSI paper (Wang et al., SIGIR
// 2011, Section 6.3, Table 2 row "PLSI").
//
// # Model (PLSI Section 3.1)
//
// The asymmetric parameterization P(d, w) = P(d) Σ_z P(w|z) P(z|d). P(d) is
// proportional to the length n(d) = Σ_w n(d, w) and does not interact with
// the other parameters, so the fit maximizes the conditional log-likelihood
//
//	L = Σ_d Σ_w n(d, w) · log Σ_z P(w|z) P(z|d)                  (PLSI Eq. 2, less Σ_d n(d) log P(d))
//
// over P(w|z) (TermTopics, M×K, every column sums to 1) and P(z|d)
// (DocTopics, N×K, every row sums to 1). n(d, w) is the entry D[w, d] of the
// corpus: normally a term count; any non-negative weight works (EM then
// maximizes the weighted likelihood, the KL-divergence view of Table 2 of
// the RLSI paper). The recorded objective is the negative log-likelihood
// −L (term "-loglik"), so that, EM never decreasing L (Dempster, Laird and
// Rubin 1977), the recorded objective never increases.
//
// # EM (PLSI Section 3.2, Eq. 3–5, with β = 1: plain, not tempered, EM)
//
// E-step: P(z|d,w) = P(w|z)P(z|d) / P(w|d), P(w|d) = Σ_z P(w|z)P(z|d).
// M-step: P(w|z) ∝ Σ_d n(d,w) P(z|d,w), P(z|d) ∝ Σ_w n(d,w) P(z|d,w).
// Substituting the E-step into the M-step gives the same updates in a form
// that never stores the N·M·K posteriors: with r(d,w) = n(d,w)/P(w|d) on
// the non-zeros of D,
//
//	P(z|d) ← P(z|d) · Σ_w r(d,w) P(w|z)  / n(d)          (rows of R_DT·Φ, R_DT = [r]  N×M)
//	P(w|z) ← P(w|z) · Σ_d r(d,w) P(z|d)  / c_z            (rows of R_D·Θ,  R_D  = [r]ᵀ M×N)
//
// where c_z normalizes column z over the terms; both use the parameters of
// the previous iteration (simultaneous update, as in Hofmann's EM). The
// normalizers are computed as the actual sums of the new unnormalized
// values (in exact arithmetic n(d) for a row of P(z|d), and
// Σ_{d,w} n(d,w)P(z|d,w) for a column of P(w|z)), so rows and columns sum
// to 1 up to rounding. One iteration costs two sparse-times-dense products
// (engine/sparse.MulDense) and one K-long dot product per non-zero of D.
//
// Reading choice (initialization): Hofmann does not fix it; P(w|z) and
// P(z|d) start from independent Uniform(0, 1] entries (engine.NewRand(Seed):
// first Θ document by document, then Φ term by term), normalized.
// A document with n(d) = 0 keeps its initial P(z|d); a P(w|d) that
// underflows to 0 where n(d, w) > 0 (log 0) stops the fit with
// Status NumericalFailure naming the term and document, returning the last
// accepted parameters (the fit runs through engine.Iterate: an EM step
// computes the new parameters beside the current ones). A corpus with no
// positive count has nothing to model, and one whose log-likelihood at the
// start overflows float64 (counts near 1e308) has no finite objective:
// both are errors from Fit. Below that, the scale of the counts cancels out
// of the updates (r(d,w) is normalized away) unless r itself overflows,
// which is a NumericalFailure of the M-step.
//
// # Parallelism and determinism
//
// The E-step (P(w|d), r, the log-likelihood) runs over fixed blocks of
// documents, each non-zero written to its own place and the log-likelihood
// summed per block (compensated) then over blocks in block order; the
// P(z|d) update runs over rows of R_DT and the P(w|z) update over rows of
// R_D (the sufficient statistics Σ_d r(d,w)P(z|d) of a term are owned by
// one block, so no cross-block reduction is needed for them); the column
// normalizers c_z are reduced over fixed term blocks in block order. The
// same Seed therefore gives the same bits for any number of workers.
//
// # Folding-in (PLSI Section 4.2)
//
// A query or new document q is folded in by EM on P(z|q) with P(w|z) held
// fixed, maximizing Σ_w n(q,w) log Σ_z P(w|z)P(z|q):
//
//	P(z|q) ← P(z|q) · Σ_w (n(q,w)/P(w|q)) P(w|z) / n(q)
//
// from the uniform P(z|q) = 1/K, until the relative change of the query's
// log-likelihood between two iterations is at most FoldInTol
// (DefaultFoldInTol = 1e-6) or FoldInIters iterations have run
// (DefaultFoldInIters = 100). Terms that no topic generates (P(w|z) = 0 for
// every z, e.g. terms absent from the training documents) are ignored; a
// query with no other term gets the uniform 1/K. Rows are independent, so
// FoldIn is deterministic and bit-identical for any number of workers.
//
// # Example
//
// The package example (example_test.go; pkg.go.dev and `go doc -http`
// show it, and `go test` runs it) fits raw counts drawn from planted topics (engine/synthetic),
// compares P(w|z) with the planted topics and folds the documents in.
package plsi
