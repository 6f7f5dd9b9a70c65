// Package pipeline builds one Apache Beam pipeline per outer iteration of
// Distributed RLSI (Wang, Xu, Li, Craswell, "Regularized Latent Semantic
// Indexing", SIGIR 2011, §4.4 and Figure 1) and of Group RLSI's
// class-parallel blocks (Wang, Cao, Xu, Li, "Group Matrix Factorization for
// Scalable Topic Modeling", SIGIR 2012, §4).
//
// # RLSI, one iteration (§4.4)
//
//	Map-1     S = VVᵀ is broadcast (a singleton side input); R = DVᵀ is
//	          shuffled by term row as the sum of per-document outer products
//	          DVᵀ = Σ_n d_n v_nᵀ: document n emits, for each of its terms m,
//	          the record ⟨m, (n, d_mn, v_n)⟩.
//	Reduce-1  term m gathers its records, forms r̄_m = Σ_n d_mn v_n and solves
//	          the lasso of Eq. 3, min ‖d̄_m − Vᵀū‖² + λ1‖ū‖₁, with the engine's
//	          solver (engine/solve.Lasso) warm-started from the previous ū_m
//	          (joined by term); it emits ū_m and, for each of its documents,
//	          ⟨n, (m, d_mn, ū_m)⟩ — Map-2's shuffle of Φ = UᵀD = Σ_m ū_m d̄_mᵀ.
//	Map-2     Σ = (UᵀU + λ2 I)⁻¹ is broadcast (engine/solve.RidgeInverse).
//	Reduce-2  document n gathers its records, forms φ_n = Σ_m d_mn ū_m and
//	          emits v_n = Σφ_n.
//
// # Ordered reductions: bit for bit equal to engine/rlsi
//
// Every sum is computed in the order the in-memory engine uses, with the
// engine's own kernels, so the factors are bit-identical to
// rlsi.Options{Variant: U1V2, Stopping.RelTol: 0} (and to grouprlsi) after
// any number of iterations, for any runner, worker count or sharding:
//   - r̄_m and φ_n: the records of a key are sorted by document (term) index
//     and summed by sparse.MulDense on a one-row matrix, the engine's row
//     kernel, whose grouping of additions depends only on the sequence of
//     entries of the row — the same sequence as row m of D (row n of Dᵀ).
//     Every document of a term is present, including those whose ū_m is
//     zero (a zero row still takes its place in the kernel's groups).
//   - Gram matrices (VVᵀ, UᵀU and Group RLSI's class and topic Grams): the
//     engine sums fixed blocks of 1024 rows (dense.RowBlock) and adds the
//     block partials in block order. Here each block's partial is the
//     engine kernel applied to that block's rows (with zero rows in place),
//     and the partials are shuffled by output row x and added, per entry,
//     in block order: the same additions, spread over K reducers.
//   - Σ, the lasso, v_n = Σφ_n: the engine's functions on the same inputs.
//
// A block with no non-zero row is skipped: adding an all-zero partial
// leaves every running sum unchanged (the sum starts at +0 and is never −0).
package pipeline
