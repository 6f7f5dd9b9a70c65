// Package stats holds the significance test used to compare two retrieval
// systems query by query, Student's t confidence interval of a mean, Holm's
// correction for a family of tests, and small descriptive helpers.
//
// # Paired two-sided t-test
//
// For paired samples a_i, b_i (i = 1..n), e.g. the AP of two systems on the
// same queries, with differences d_i = a_i − b_i:
//
//	d̄ = (1/n) Σ d_i,   s = sqrt( Σ (d_i − d̄)² / (n − 1) ),
//	t = d̄ / (s / √n),  df = n − 1,
//	p = 2 · F_df(−|t|)
//
// where F_df is the CDF of Student's t distribution with df degrees of
// freedom (gonum.org/v1/gonum/stat/distuv.StudentsT). This is Student's
// paired test as in scipy.stats.ttest_rel and R's t.test(paired = TRUE); the
// papers reproduced here report "t-test, p-value < 0.05" without saying more,
// and paired-by-query is the reading we choose.
//
// Degenerate cases are returned as data (TTest.Warnings), never as panics:
// n < 2 gives T = P = NaN; zero variance of the differences gives, as scipy,
// T = ±Inf and P = 0 when d̄ ≠ 0, and T = P = NaN when every difference is 0.
//
// # Confidence interval and Holm's correction
//
// MeanInterval is x̄ ± t_{(1+level)/2, n−1} · s/√n (scipy.stats.t.interval).
// Holm adjusts the p-values of a family of m tests step-down (Holm,
// Scandinavian Journal of Statistics 1979); hypotheses of the family whose
// p-values are not computed count as p = 1, which is conservative.
//
// Reference: Student, "The probable error of a mean", Biometrika 6(1), 1908
// (whose sleep data is the golden test); M. D. Smucker, J. Allan and
// B. Carterette, "A comparison of statistical significance tests for
// information retrieval evaluation", CIKM 2007.
package stats
