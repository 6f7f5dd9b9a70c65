#!/usr/bin/python3
"""Reference for engine/onlinelda's test: scikit-learn's online LDA on a corpus
drawn from LDA's generative model.

Writes train.mtx and test.mtx (documents as rows, counts), reference.txt with
scikit-learn's held-out perplexity for five random states, and lambda0.mtx,
the topics' λ (components_, K × W) of random state 0, whose held-out
perplexity is the first line of reference.txt. Run from this
folder with Debian's python3-sklearn and python3-scipy:

    /usr/bin/python3 sklearn_reference.py
"""
import numpy as np
import scipy.io
import scipy.sparse
import sklearn
from sklearn.decomposition import LatentDirichletAllocation

rng = np.random.default_rng(20131)
K, W, N_TRAIN, N_TEST = 8, 250, 600, 200
topics = rng.dirichlet(np.full(W, 0.05), size=K)  # K × W


def draw(n):
    rows = []
    for _ in range(n):
        theta = rng.dirichlet(np.full(K, 0.2))
        length = rng.integers(30, 90)
        z = rng.choice(K, size=length, p=theta)
        counts = np.zeros(W)
        for k in z:
            counts[rng.choice(W, p=topics[k])] += 1
        rows.append(counts)
    return scipy.sparse.csr_matrix(np.array(rows))


train, test = draw(N_TRAIN), draw(N_TEST)
scipy.io.mmwrite("train.mtx", train, field="integer")
scipy.io.mmwrite("test.mtx", test, field="integer")

settings = dict(n_components=10, doc_topic_prior=0.1, topic_word_prior=0.1,
                learning_method="online", learning_offset=10.0, learning_decay=0.7,
                batch_size=64, max_iter=30, max_doc_update_iter=100, mean_change_tol=1e-3)
with open("reference.txt", "w") as out:
    out.write("# scikit-learn %s LatentDirichletAllocation%r\n" % (sklearn.__version__, settings))
    out.write("# held-out perplexity of test.mtx, one line per random_state 0..4\n")
    for seed in range(5):
        lda = LatentDirichletAllocation(random_state=seed, **settings).fit(train)
        out.write("%.17g\n" % lda.perplexity(test))
        if seed == 0:
            scipy.io.mmwrite("lambda0.mtx", lda.components_, precision=17)
