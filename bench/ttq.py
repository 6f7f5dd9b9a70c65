"""The Python side of bench/time-to-quality.sh: scikit-learn and gensim fits
for increasing iteration counts on ttq split's training matrix.

    ttq.py DIR K MODEL AT [batch=B]

MODEL is sklearn-lda-batch, sklearn-lda-online, gensim-lda, sklearn-nmf-mu,
sklearn-nmf-cd or sklearn-tsvd; AT is a comma-separated list of iteration
counts (max_iter, passes; TruncatedSVD's n_iter, its power iterations). For
each count n it fits from scratch (random_state 0, so the fit of n
iterations is the first n of a longer one), times the whole fit, and prints
the line format of `ttq fit`:

    model  n  seconds  quality

where quality is, for LDA, a file holding the topics (terms x topics, each
column summing to 1, Matrix Market array) that `ttq score` replaces by the
held-out perplexity with document completion, the same scorer as for
topicmf's models; for NMF, ||X - WH||_F^2 (scikit-learn's
reconstruction_err_ squared, the same ||D - UV^T||_F^2 as `ttq fit`
computes for topicmf); for TruncatedSVD, a file holding its basis
(components_ transposed, terms x K) that `ttq score` replaces by
||D - U U^T D||_F^2, as for topicmf's LSI. Settings: scikit-learn's defaults and priors 1/K
(its defaults), online VB with learning_offset 10, learning_decay 0.7 and
batch_size B as topicmf's onlinelda; gensim's LdaModel with chunksize B,
update_every 1, offset 10, decay 0.7, alpha = eta = 1/K, iterations 100,
gamma_threshold 1e-3 (scikit-learn's E-step rule); TruncatedSVD randomized
with n_oversamples 10 (its default, and topicmf's); n_jobs 2 for
scikit-learn; thread counts from the environment.
"""

import os
import sys
import time
import warnings

import numpy as np
import scipy.io

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from pybench import read_mm  # noqa: E402


def main():
    out, k, model, at = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4]
    opts = dict(a.split("=", 1) for a in sys.argv[5:])
    batch = int(opts.get("batch", 2000))
    warnings.filterwarnings("ignore")
    d = read_mm(os.path.join(out, "train.mtx"))  # terms x documents
    x = d.T.tocsr()
    # Imports and the gensim corpus wrapper outside the timed fits: the
    # first checkpoint would otherwise pay for loading the library.
    from sklearn.decomposition import NMF, LatentDirichletAllocation, TruncatedSVD
    from gensim.matutils import Sparse2Corpus
    from gensim.models import LdaModel
    corpus = Sparse2Corpus(d.tocsc(), documents_columns=True)
    id2word = {i: f"t{i}" for i in range(d.shape[0])}
    for n in (int(s) for s in at.split(",")):
        t = time.perf_counter()
        if model.startswith("sklearn-lda"):
            m = LatentDirichletAllocation(n_components=k, learning_method=model[12:], max_iter=n,
                                          learning_offset=10.0, learning_decay=0.7, batch_size=batch,
                                          evaluate_every=-1, n_jobs=2, random_state=0).fit(x)
            secs = time.perf_counter() - t
            topics = m.components_ / m.components_.sum(axis=1, keepdims=True)
        elif model == "gensim-lda":
            m = LdaModel(corpus, num_topics=k, id2word=id2word, passes=n,
                         chunksize=batch, update_every=1, offset=10.0, decay=0.7, alpha=np.full(k, 1.0 / k),
                         eta=1.0 / k, iterations=100, gamma_threshold=1e-3, eval_every=None, random_state=0)
            secs = time.perf_counter() - t
            topics = m.get_topics().astype(np.float64)
            topics /= topics.sum(axis=1, keepdims=True)
        elif model.startswith("sklearn-nmf"):
            m = NMF(n_components=k, solver=model[12:], max_iter=n, tol=0, random_state=0).fit(x)
            secs = time.perf_counter() - t
            print(f"{model}\t{n}\t{secs:.4f}\t{m.reconstruction_err_ ** 2:.10g}", flush=True)
            continue
        elif model == "sklearn-tsvd":
            m = TruncatedSVD(n_components=k, algorithm="randomized", n_iter=n, n_oversamples=10,
                             random_state=0).fit(x)
            secs = time.perf_counter() - t
            path = os.path.join(out, f"basis-{model}-{n}.mtx")
            scipy.io.mmwrite(path, np.ascontiguousarray(m.components_.T), precision=17)
            print(f"{model}\t{n}\t{secs:.4f}\t{path}", flush=True)
            continue
        else:
            raise SystemExit(f"ttq.py: unknown model {model!r}")
        path = os.path.join(out, f"beta-{model}-{n}.mtx")
        scipy.io.mmwrite(path, np.ascontiguousarray(topics.T), precision=17)
        print(f"{model}\t{n}\t{secs:.4f}\t{path}", flush=True)


if __name__ == "__main__":
    main()
