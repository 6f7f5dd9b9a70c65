"""Times the Python topic-model tools on a Matrix Market term-document matrix.

Run by bench/side-by-side.sh with Debian's /usr/bin/python3 (python3-sklearn,
python3-gensim, python3-numpy, python3-scipy) and the thread count fixed by
OMP_NUM_THREADS / OPENBLAS_NUM_THREADS / MKL_NUM_THREADS.

    pybench.py MATRIX.mtx K [methods] [batch=B] [sigma=FILE]

batch=B is the minibatch size of the online LDA methods (default 2000);
sigma=FILE holds reference singular values (one per line, from
bench/cmd/svdacc), against which TruncatedSVD's are scored (method
tsvd-acc: the largest relative error of the top 10 and of all K).

The matrix is terms x documents (as topicmf's D); the scikit-learn models are
fitted on its transpose, documents x terms, as CountVectorizer output would
be. One tab-separated line per method:

    method  seconds  how_measured

NMF's per-iteration times are differences of whole fits, so that
initialization, input validation and the final reconstruction error cancel:
(fit(max_iter=hi) - fit(max_iter=lo)) / (hi - lo), both with tol=0 so that
no fit stops early. scikit-learn's LDA (batch and online) replays fit's
loop and times each iteration or pass, because fit ends with an E-step
over every document whose cost does not cancel; gensim's online LDA times
one update() per pass.
"""

import sys
import time

import numpy as np
import scipy.sparse as sp


def read_mm(path):
    """Reads a 'matrix coordinate real general' file fast (numpy's C parser)."""
    with open(path) as f:
        header = f.readline()
        if not header.startswith("%%MatrixMarket matrix coordinate"):
            raise SystemExit(f"{path}: not a coordinate Matrix Market file: {header!r}")
        line = f.readline()
        while line.startswith("%"):
            line = f.readline()
        rows, cols, nnz = (int(x) for x in line.split())
        data = np.array(f.read().split(), dtype=np.float64)
    if data.size != 3 * nnz:
        raise SystemExit(f"{path}: {data.size // 3} entries, header says {nnz}")
    data = data.reshape(nnz, 3)
    return sp.csr_matrix(
        (data[:, 2], (data[:, 0].astype(np.int64) - 1, data[:, 1].astype(np.int64) - 1)),
        shape=(rows, cols))


def timed(f):
    t = time.perf_counter()
    f()
    return time.perf_counter() - t


def per_iter(fit, lo, hi):
    """(time of fit(hi) - time of fit(lo)) / (hi - lo)."""
    t_lo = timed(lambda: fit(lo))
    t_hi = timed(lambda: fit(hi))
    return (t_hi - t_lo) / (hi - lo), f"(fit {hi} iters {t_hi:.3f}s - fit {lo} {t_lo:.3f}s)/{hi - lo}"


def sklearn_lda_iterations(x, k, n):
    """Times each batch EM iteration of scikit-learn's LDA separately.

    LatentDirichletAllocation.fit(learning_method='batch') is, after input
    checks and _init_latent_vars, a loop of _em_step calls inside one
    joblib.Parallel context followed by a final E-step and a perplexity. The
    first iteration costs far more than later ones (its E-step starts from
    random topics and runs up to max_doc_update_iter inner updates per
    document), so differences of whole fits are unreliable; this replays the
    loop with the same private calls (scikit-learn 1.2) and times each
    _em_step, as topicmf's Recorder times each iteration. Returns the median
    and the list.
    """
    from sklearn.decomposition import LatentDirichletAllocation
    from sklearn.utils.parallel import Parallel
    lda = LatentDirichletAllocation(n_components=k, learning_method="batch", n_jobs=2,
                                    random_state=0)
    lda._validate_params()
    xc = lda._check_non_neg_array(x, reset_n_features=True, whom="pybench")
    lda._init_latent_vars(xc.shape[1], dtype=xc.dtype)
    times = []
    with Parallel(n_jobs=2) as parallel:
        # Start the joblib worker processes outside the timing.
        parallel(__import__("joblib").delayed(abs)(i) for i in range(4))
        for _ in range(n):
            t = time.perf_counter()
            lda._em_step(xc, total_samples=xc.shape[0], batch_update=True, parallel=parallel)
            times.append(time.perf_counter() - t)
    return float(np.median(times)), ("median of the first %d EM iterations, each timed: " % n +
                                     ", ".join(f"{t:.3f}s" for t in times))


def online_lda_sklearn(x, k, batch, passes=2):
    """Seconds per pass of scikit-learn's online VB LDA (Hoffman et al. 2010).

    Same settings as topicmf's onlinelda: learning_offset (tau0) 10,
    learning_decay (kappa) 0.7, priors 1/K, max_doc_update_iter 100,
    mean_change_tol 1e-3, batch_size = batch, n_jobs 2. fit() ends with an
    E-step over every document and a perplexity, whose cost depends on how
    far the topics have come, so differences of whole fits are unreliable
    (on a quiet machine they gave -0.23 to 15.5 s per pass). This replays
    fit's online loop with the same private calls (scikit-learn 1.2: an
    _em_step per minibatch with total_samples = the number of documents,
    inside one joblib.Parallel) and times each pass. Returns the mean of
    passes 1..passes, initialization excluded, as fitbench reports
    topicmf's.
    """
    from sklearn.decomposition import LatentDirichletAllocation
    from sklearn.utils import gen_batches
    from sklearn.utils.parallel import Parallel
    lda = LatentDirichletAllocation(n_components=k, learning_method="online", learning_offset=10.0,
                                    learning_decay=0.7, batch_size=batch, n_jobs=2, random_state=0)
    lda._validate_params()
    xc = lda._check_non_neg_array(x, reset_n_features=True, whom="pybench")
    lda._init_latent_vars(xc.shape[1], dtype=xc.dtype)
    n = xc.shape[0]
    times = []
    with Parallel(n_jobs=2) as parallel:
        # Start the joblib workers and load scikit-learn's E-step in them
        # outside the timing (an E-step changes no topic).
        lda._e_step(xc[:4, :], cal_sstats=False, random_init=True, parallel=parallel)
        for _ in range(passes):
            t = time.perf_counter()
            for rows in gen_batches(n, batch):
                lda._em_step(xc[rows, :], total_samples=n, batch_update=False, parallel=parallel)
            times.append(time.perf_counter() - t)
    return float(np.mean(times)), (f"mean of passes 1-{passes}, each timed (fit's online loop "
                                   "replayed; no final E-step): " +
                                   ", ".join(f"{t:.3f}s" for t in times))


def online_lda_gensim(d, k, batch, passes=2):
    """Seconds per pass of gensim's LdaModel (online VB, one process).

    chunksize = batch, update_every 1 (an M-step per minibatch, as
    Hoffman's online VB and scikit-learn), offset (tau0) 10, decay (kappa)
    0.7, alpha = eta = 1/K, iterations 100, gamma_threshold 1e-3 (the same
    per-document stopping rule as scikit-learn's mean_change_tol), no
    perplexity evaluation. The model is built without a corpus (the random
    initial topics), then each pass is one timed update(corpus, passes=1).
    A second update() restarts gensim's pass counter, so its first step
    size is (10 + 10)^-0.7 instead of (10 + 1 + 10)^-0.7, which changes the
    topics slightly and the work per pass hardly at all.
    Returns the mean of passes 1..passes.
    """
    from gensim.matutils import Sparse2Corpus
    from gensim.models import LdaModel
    corpus = Sparse2Corpus(d.tocsc(), documents_columns=True)
    id2word = {i: f"t{i}" for i in range(d.shape[0])}
    lda = LdaModel(None, num_topics=k, id2word=id2word, chunksize=batch, update_every=1,
                   offset=10.0, decay=0.7, alpha=np.full(k, 1.0 / k), eta=1.0 / k, iterations=100,
                   gamma_threshold=1e-3, eval_every=None, random_state=0)
    times = [timed(lambda: lda.update(corpus, passes=1)) for _ in range(passes)]
    return float(np.mean(times)), (f"mean of passes 1-{passes}, each one timed update(): " +
                                   ", ".join(f"{t:.3f}s" for t in times))


def tsvd_accuracy(x, k, ref_path):
    """Largest relative error of TruncatedSVD's (defaults) singular values."""
    from sklearn.decomposition import TruncatedSVD
    ref = np.loadtxt(ref_path)
    s = TruncatedSVD(n_components=k, algorithm="randomized", random_state=0).fit(x).singular_values_
    rel = np.abs(s - ref[:k]) / ref[:k]
    return float(rel[:10].max()), float(rel.max())


def main():
    path, k = sys.argv[1], int(sys.argv[2])
    opts = dict(a.split("=", 1) for a in sys.argv[3:] if "=" in a)
    rest = [a for a in sys.argv[3:] if "=" not in a]
    methods = (rest[0] if rest else
               "nmf-mu,nmf-cd,tsvd,sklearn-lda,gensim-lda,sklearn-olda,gensim-olda").split(",")
    batch = int(opts.get("batch", 2000))
    import warnings
    warnings.filterwarnings("ignore")  # ConvergenceWarning: max_iter reached on purpose
    d = read_mm(path)  # terms x documents
    x = d.T.tocsr()    # documents x terms
    print(f"pybench: {d.shape[0]} terms x {d.shape[1]} documents, {d.nnz} non-zeros, K = {k}",
          file=sys.stderr)

    for m in methods:
        if m in ("nmf-mu", "nmf-cd"):
            from sklearn.decomposition import NMF
            solver = m[4:]

            def fit(n, solver=solver):
                NMF(n_components=k, solver=solver, init="random", max_iter=n, tol=0,
                    random_state=0).fit(x)
            runs = [per_iter(fit, 1, 6) for _ in range(3)]
            secs = float(np.median([r[0] for r in runs]))
            how = "median of 3: " + "; ".join(f"{r[0]:.4f}s = {r[1]}" for r in runs)
        elif m == "tsvd":
            from sklearn.decomposition import TruncatedSVD
            fits = [timed(lambda: TruncatedSVD(n_components=k, algorithm="randomized",
                                               random_state=0).fit(x)) for _ in range(2)]
            secs, how = min(fits), "whole fit, n_iter=5, n_oversamples=10 (defaults), best of 2: " + \
                ", ".join(f"{t:.3f}s" for t in fits)
        elif m == "tsvd-acc":
            top10, topk = tsvd_accuracy(x, k, opts["sigma"])
            print(f"{m}\t{top10:.3e}\t{topk:.3e}\tmax relative error of sigma_1..10 and sigma_1..K "
                  f"against the converged reference (bench/cmd/svdacc)", flush=True)
            continue
        elif m == "sklearn-olda":
            secs, how = online_lda_sklearn(x, k, batch)
            how = f"batch_size={batch}: " + how
        elif m == "gensim-olda":
            secs, how = online_lda_gensim(d, k, batch)
            how = f"chunksize={batch}: " + how
        elif m == "sklearn-lda":
            secs, how = sklearn_lda_iterations(x, k, 3)
        elif m == "gensim-lda":
            from gensim.matutils import Sparse2Corpus
            from gensim.models import LdaModel, LdaMulticore
            corpus = Sparse2Corpus(d.tocsc(), documents_columns=True)
            id2word = {i: f"t{i}" for i in range(d.shape[0])}
            t_serial = timed(lambda: LdaModel(corpus, num_topics=k, id2word=id2word, passes=1,
                                              eval_every=None, random_state=0))
            t_multi = timed(lambda: LdaMulticore(corpus, num_topics=k, id2word=id2word, passes=1,
                                                 workers=1, eval_every=None, random_state=0))
            print(f"gensim-lda-serial\t{t_serial:.4f}\tLdaModel, one pass (online VB, chunksize 2000, "
                  f"iterations 50), whole fit")
            secs, how = t_multi, "LdaMulticore(workers=1: one E-step worker + the M-step process), one pass, whole fit"
        else:
            raise SystemExit(f"unknown method {m!r}")
        print(f"{m}\t{secs:.4f}\t{how}", flush=True)


if __name__ == "__main__":
    main()
