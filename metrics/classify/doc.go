// Package classify trains linear support vector machines on document
// representations (e.g. topic proportions) and measures classification
// accuracy, as the TNMF paper (Yan et al. SDM 2013, Sec. 5.5: LIBLINEAR on a
// random 4:1 train/test split) and the joint topic-document paper (Min & Ma
// ICASSP 2013: linear SVM, 5-fold cross-validation) do.
//
// # The classifier
//
// For a binary problem with examples x_i and labels y_i ∈ {−1, +1}, the
// L2-regularized L2-loss (squared hinge) SVM is
//
//	min_w ½ wᵀw + C Σ_i max(0, 1 − y_i wᵀx_i)²
//
// (LIBLINEAR -s 1, the default of scikit-learn's LinearSVC). With a bias
// term, every x_i gets an extra constant feature of value B (Options.BiasValue,
// default 1) whose weight is regularized like the others (LIBLINEAR -B B,
// LinearSVC(intercept_scaling=B)). It is solved in the dual
//
//	min_α ½ αᵀ Q̄ α − eᵀα  subject to α_i ≥ 0,   Q̄ = Q + D,
//	Q_ij = y_i y_j x_iᵀx_j,  D_ii = 1/(2C),  w = Σ_i y_i α_i x_i
//
// by dual coordinate descent: Hsieh, Chang, Lin, Keerthi & Sundararajan, "A
// Dual Coordinate Descent Method for Large-scale Linear SVM", ICML 2008,
// Algorithm 1 (L2-loss: U = ∞). Each outer iteration visits the coordinates
// in a random order; coordinate i has gradient G = y_i wᵀx_i − 1 + D_ii α_i,
// projected gradient PG = min(G, 0) if α_i = 0 else G, and is updated as
// α_i ← max(α_i − G/Q̄_ii, 0) with w moved accordingly. The solver stops when
// max PG − min PG over an outer iteration is at most Options.Tol (LIBLINEAR's
// criterion, default 0.1) or after Options.MaxIter outer iterations (a
// warning in Model.Warnings). Shrinking (Sec. 3.2 of the paper) is on by
// default: a coordinate with α_i = 0 and G above the previous iteration's
// maximum projected gradient leaves the active set; when the active set
// converges, all coordinates are checked again before stopping, so shrinking
// changes the path, not the optimum.
//
// The dual is strictly convex (D > 0), so the optimum is unique and the
// weights agree with LIBLINEAR / scikit-learn up to the tolerance whatever
// the visiting order. The order itself comes from math/rand/v2 seeded with
// engine.DeriveSeed(Options.Seed, "classify", problem), so a seed gives the
// same bits for any GOMAXPROCS.
//
// # Multi-class
//
// Classes are the distinct labels, increasing. Two classes give one problem,
// Classes[1] positive (as LinearSVC; its coef_ is our Weights[0]); k ≥ 3
// classes give k one-vs-rest problems, class j positive in problem j, and a
// row is assigned the class of the largest decision value wⱼᵀx (the smaller
// label on ties). A single class gives a constant model.
//
// # Evaluation
//
// Accuracy is the fraction of correct predictions; Confusion counts
// (true, predicted) pairs. RepeatedHoldout draws R random splits with a
// given test fraction (default 1/5, the 4:1 split) and KFold cuts one random
// permutation into k folds; both return per-split accuracies with their mean
// and sample standard deviation.
package classify
