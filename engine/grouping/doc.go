// Package grouping lays out a labelled corpus for the group models of
// Group Matrix Factorization (Wang, Cao, Xu, Li, "Group Matrix
// Factorization for Scalable Topic Modeling", SIGIR 2012; "GMF" below):
// documents regrouped by class, the fixed work units that keep classes of
// very different sizes balanced on the shared pool, and the block kernels
// that the GRLSI (engine/grouprlsi) and Group NMF (engine/groupnmf) updates
// share, with the guarded multiplicative step (MultiplicativeStep) of Group
// NMF and GNMFNC (engine/gnmfnc).
//
// # Class-major order (GMF §3.1)
//
// GMF writes the collection as D = {D_1, …, D_P}, D_p (M×N_p) holding the
// documents of class p. Layout stores the documents in class-major order:
// class 0's documents first (in corpus order), then class 1's, and so on, so
// that D_p is the contiguous column range [Offset[p], Offset[p+1]) of D and
// the factors of class p (V_p = [H_p; W_p], stored transposed with a row per
// document) are a contiguous range of rows. When the corpus is already in
// that order (for example a single class) the corpus matrices are used as
// they are.
//
// # Work units and determinism
//
// Per-class work over documents (Grams W_pW_pᵀ, H_pW_pᵀ, the V_p updates)
// is cut into units: each class's range is cut into blocks of a fixed
// number of documents starting at the class's offset, so a class of a
// million documents is a thousand units and a class of ten is one, and the
// pool's workers take units in order as they free up. Boundaries depend on
// the class sizes and the block size only, and per-class reductions add
// unit partials in unit order, so results are the same bits for any number
// of workers. Per-class work over terms (the rows of U_p) runs over fixed
// blocks of term rows each covering every class, which is balanced by
// construction (every class has M rows).
//
// # Per-class baselines
//
// CRLSI and CNMF (GMF §7.3) fit one single-class model per class on that
// class's documents (ClassCorpus, seeds from ClassSeed). RunClasses runs
// them in lockstep — iteration t of every class, then the merged iteration
// t (MergeAt: objective and terms summed over classes) is recorded — so a
// Recorder sees live progress and a cancellation stops every class after
// the same iteration. One class computes at a time, using the whole pool
// in its own parallel loops, so the pool's bound on computing goroutines
// holds. FitPerClass and PerClass hold the rest of a baseline (fit, layout
// of [U_1 … U_P], fold-in and class prediction); a family supplies only its
// single-class method (ClassMethod) and its E(d; U_p) (ClassLoss).
package grouping
