#!/usr/bin/python3
"""Reference coherence scores from gensim's CoherenceModel.

usage: gensim_coherence.py DIR [--window N] [--cv-window N] MEASURE...

Without --window or --cv-window, gensim's own default window of each
measure is used (10 for c_uci and c_npmi, 110 for c_v), so that a test
comparing topicmf's defaults against it notices when they drift apart.

DIR holds texts.txt (one reference document per line, its tokens in text
order separated by single spaces; an empty line is an empty document) and
topics.txt (one topic per line, its words best first). MEASURE is one of
umass, uci, npmi, cv. Prints a JSON object: measure -> per-topic scores.

gensim runs single-process (processes=1): its parallel accumulator counts
the windows of documents shorter than the window differently (as
len - window + 1, which can be negative), the serial one counts one.
"""
import argparse
import json
import os
import sys

from gensim.corpora import Dictionary
from gensim.models.coherencemodel import CoherenceModel

NAMES = {"umass": "u_mass", "uci": "c_uci", "npmi": "c_npmi", "cv": "c_v"}


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return [line.rstrip("\n") for line in f]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("dir")
    ap.add_argument("--window", type=int, default=None)
    ap.add_argument("--cv-window", type=int, default=None)
    ap.add_argument("measures", nargs="+", choices=sorted(NAMES))
    args = ap.parse_args()
    texts = [line.split() for line in read_lines(os.path.join(args.dir, "texts.txt"))]
    topics = [line.split() for line in read_lines(os.path.join(args.dir, "topics.txt")) if line]
    dictionary = Dictionary(texts)
    topn = max(len(t) for t in topics)
    out = {}
    for m in args.measures:
        window = {"uci": args.window, "npmi": args.window, "cv": args.cv_window}.get(m)
        cm = CoherenceModel(topics=topics, texts=texts, dictionary=dictionary,
                            coherence=NAMES[m], window_size=window, topn=topn, processes=1)
        out[m] = [float(x) for x in cm.get_coherence_per_topic()]
    json.dump(out, sys.stdout)


if __name__ == "__main__":
    main()
