// Package onlinelda is latent Dirichlet allocation learned by online
// variational Bayes: Hoffman, Blei & Bach, "Online learning for latent
// Dirichlet allocation", NIPS 2010, Algorithm 2 — the LDA the ICASSP 2013
// joint topic-document paper compares with (its [8], §5.2).
//
// The variational posterior of the topics is q(β_k) = Dir(λ_k) (λ is K×W,
// stored here W×K, one row per term, as the engine stores term-topic
// matrices). One pass reads the documents in order in minibatches of
// BatchSize; for a minibatch B the E-step fits each document's
// q(θ_d) = Dir(γ_d) with λ fixed,
//
//	φ_dwk ∝ exp(E[log θ_dk] + E[log β_kw]),  γ_dk = α + Σ_w n_dw φ_dwk,
//
// iterated until the mean absolute change of γ_d is below MeanChangeTol (at
// most MaxDocIters times), and the M-step blends in the minibatch's estimate
//
//	λ ← (1 − ρ_t) λ + ρ_t (η + (N/|B|) Σ_{d∈B} n_dw φ_dwk),  ρ_t = (τ0 + t)^(−κ)
//
// with t counting minibatches from 1. E[log θ_dk] = ψ(γ_dk) − ψ(Σ_j γ_dj) and
// E[log β_kw] = ψ(λ_kw) − ψ(Σ_v λ_kv).
//
// The options are named and defaulted as scikit-learn's
// LatentDirichletAllocation(learning_method="online") names them (gensim's
// LdaModel: offset = τ0, decay = κ, chunksize = batch size, passes), and the
// computations follow its implementation so that the two agree in
// distribution: λ starts Gamma(100, 1/100), each document's γ starts
// Gamma(100, 1/100) during the fit and at 1 when transforming, φ's
// normalizer gets + machine ε, and the evidence lower bound and perplexity
// are those of its perplexity() (Hoffman et al. Eq. 4 with the corpus-level
// terms). The random draws differ (PCG here), so results agree in
// distribution, not bit for bit: the test holds held-out perplexity to
// scikit-learn's within a few percent.
//
// # Arithmetic of the E-step
//
// Every E-step iteration of a document evaluates exp(E[log θ_dk]) =
// exp(ψ(γ_dk) − ψ(Σ_j γ_dj)) for all K topics, and every minibatch
// exp(E[log β_kw]) for its terms: most of a pass. Both use one kernel,
// expPsiMinus (special.go), which is an approximation with a stated bound
// rather than math.Exp(digamma(x) − c): ten steps of the recurrence
// ψ(x) = ψ(x+1) − 1/x (Abramowitz & Stegun, Handbook of Mathematical
// Functions, 6.3.5) summed as one fraction, the asymptotic series of ψ
// (A&S 6.3.18, seven Bernoulli terms at argument ≥ 10) without its
// logarithm, exp(ψ(x) − c) = y·exp(ψ(y) − log y − R − c), and Tang's
// table-driven exponential (P. T. P. Tang, ACM TOMS 15(2), 1989: 32 table
// entries, a degree-6 polynomial). Its relative error is at most
// 4·10⁻¹⁶·(8 + |ψ(x)| + |c|) — of the order of the rounding of the exponent
// itself, which math.Exp(digamma(x) − c) also carries (for x = 0.01 and
// c = ψ(100): 4.5·10⁻¹⁴) — checked against mpmath at 60 digits over
// 10⁻⁴ ≤ x ≤ 10¹² (TestExpPsiMinus); the exponential alone is within
// 5·10⁻¹⁶ of math.Exp (TestExpReduced). Four arguments run side by side
// (expPsiMinus4), with the same bits as one at a time. The sums over topics
// and terms (φ's normalizer, the γ update) run eight terms at a time on the
// AVX2 kernels of engine/dense, in a fixed order. The evidence lower bound
// and perplexity keep digamma and math.Exp.
//
// # Example
//
// The package example (example_test.go; pkg.go.dev and `go doc -http`
// show it, and `go test` runs it) fits raw counts drawn from planted topics (engine/synthetic),
// compares the topics with the planted ones and folds the documents in.
package onlinelda
