#!/usr/bin/python3
"""gensim's side of bench/coherence.sh: time CoherenceModel on the files of
`coherencebench prepare` (texts.txt, topics.txt) for one measure.

usage: coherence_gensim.py DIR MEASURE [REPEAT]

Reads the texts and builds the Dictionary outside the timing, then times
CoherenceModel(topics, texts, dictionary, coherence, processes=1) and
get_coherence_per_topic() REPEAT times (default 3), and prints one JSON
line: tool, measure, seconds (fastest), peak_rss_mb (getrusage), mean.
processes=1 because the machine has 2 cores shared with topicmf's run and
because gensim's parallel accumulator counts short documents' windows
differently (docs/quality.md); topicmf's score also runs on its pool of
GOMAXPROCS workers, which the report states.
"""
import json
import os
import resource
import sys
import time

import numpy as np
from gensim.corpora import Dictionary
from gensim.models.coherencemodel import CoherenceModel

NAMES = {"umass": "u_mass", "uci": "c_uci", "npmi": "c_npmi", "cv": "c_v"}


def main():
    d, measure = sys.argv[1], sys.argv[2]
    repeat = int(sys.argv[3]) if len(sys.argv) > 3 else 3
    with open(os.path.join(d, "texts.txt"), encoding="utf-8") as f:
        texts = [line.split() for line in f]
    with open(os.path.join(d, "topics.txt"), encoding="utf-8") as f:
        topics = [line.split() for line in f if line.strip()]
    dictionary = Dictionary(texts)
    best, mean = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        cm = CoherenceModel(topics=topics, texts=texts, dictionary=dictionary,
                            coherence=NAMES[measure], topn=10, processes=1)
        scores = cm.get_coherence_per_topic()
        best = min(best, time.perf_counter() - start)
        mean = float(np.mean(scores))
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"tool": "gensim", "measure": measure, "seconds": best,
                      "peak_rss_mb": rss, "mean": mean}))


if __name__ == "__main__":
    main()
