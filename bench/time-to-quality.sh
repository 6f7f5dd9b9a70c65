#!/usr/bin/env bash
# Time to quality (issue 16, item 4): (seconds, quality) along the fits of
# topicmf and of scikit-learn / gensim on one corpus, scored by one script.
#
#   bench/time-to-quality.sh [--k K] [--docs N] [--batch B] [--out DIR]
#
# The corpus is the quick benchmark matrix (engine/synthetic.Benchmark()
# scaled to 6,000 terms × 4,000 documents, bench/cmd/writebench -quick), of
# which the first N documents are used (default 2,000: on the shared 2-core
# machine, where a scikit-learn online pass over all 4,000 at K = 100 took
# two minutes); `ttq split` holds out every tenth document and splits its counts into an
# observed and a held half. Every model is fitted from scratch for a rising
# number of iterations (the same seed, so each fit is a checkpoint of one
# run) and the whole fit is timed, 2 threads on each side:
#
#   LDA  topicmf Gibbs (lda), topicmf online VB (onlinelda), scikit-learn
#        batch and online VB, gensim LdaModel; quality = held-out perplexity
#        with document completion, computed for every model by `ttq score`
#        from its topics alone (formula in bench/cmd/ttq/main.go)
#   NMF  topicmf MU (nmf) and ANLS (nmf-anls), scikit-learn NMF mu and cd;
#        quality = ‖D − UVᵀ‖²_F of the training matrix; TIME-TO-QUALITY.md
#        reads off the seconds to get within 1 % of the best found
#
# Output in DIR (default bench/ttq): fits.tsv (raw), scored.tsv (label, n,
# seconds, perplexity or objective), tables.md (`ttq report`: each model's
# seconds to get within 50, 30, 20, 10, 5, 2, 1 % of the best found, and every
# checkpoint), lda.png, nmf.png, load.txt
# (/proc/loadavg before and after each model). Needs Go and Debian's
# python3-sklearn and python3-gensim (bench/side-by-side.sh installs them).
set -euo pipefail

K=50
DOCS=2000
BATCH=500
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
OUT="$HERE/ttq"
while [ $# -gt 0 ]; do
	case "$1" in
	--k) K="${2:?--k needs a value}"; shift 2 ;;
	--docs) DOCS="${2:?--docs needs a value}"; shift 2 ;;
	--batch) BATCH="${2:?--batch needs a value}"; shift 2 ;;
	--out) OUT="${2:?--out needs a value}"; shift 2 ;;
	-h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "time-to-quality.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
	esac
done
PY=/usr/bin/python3
# shellcheck source=scripts/outfile.sh
. "$ROOT/scripts/outfile.sh"
mkdir -p "$OUT"
OUT="$(cd "$OUT" && pwd)"
WD="$(mktemp -d "${TMPDIR:-/tmp}/topicmf-ttq.XXXXXX")"
trap 'rm -rf "$WD"' EXIT
export GOMAXPROCS=2 OMP_NUM_THREADS=2 OPENBLAS_NUM_THREADS=2 MKL_NUM_THREADS=2

echo "== building bench/cmd/writebench and bench/cmd/ttq" >&2
(cd "$ROOT" && go build -o "$WD/writebench" ./bench/cmd/writebench && go build -o "$WD/ttq" ./bench/cmd/ttq)
"$WD/writebench" -quick -o "$WD/bench.mtx" >&2
"$WD/ttq" split -mm "$WD/bench.mtx" -docs "$DOCS" -dir "$WD"

# The results are made in $RES and copied into --out at the end.
RES="$WD/results"
mkdir -p "$RES"
: >"$RES/fits.tsv"
{ echo "k=$K docs=$DOCS batch=$BATCH threads=2 go=$(go version | cut -d' ' -f3) commit=$(cd "$ROOT" && git rev-parse --short HEAD)"; } >"$RES/load.txt"
load() { echo "$(date -u +%H:%M:%S) $1: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RES/load.txt"; }
VB=1,2,4,8
NMF=1,3,10,30,100
gofit() { load "before $1"; "$WD/ttq" fit -dir "$WD" -k "$K" -batch "$BATCH" -label "$1" -family "$2" -at "$3" | tee -a "$RES/fits.tsv" >&2; }
pyfit() { load "before $1"; $PY "$HERE/ttq.py" "$WD" "$K" "$1" "$2" "batch=$BATCH" | tee -a "$RES/fits.tsv" >&2; }
gofit topicmf-gibbs lda 10,30,100,300
gofit topicmf-onlinevb onlinelda "$VB"
pyfit sklearn-lda-online "$VB"
pyfit sklearn-lda-batch "$VB"
pyfit gensim-lda "$VB"
gofit topicmf-nmf-mu nmf "$NMF"
gofit topicmf-nmf-anls nmf-anls "$NMF"
pyfit sklearn-nmf-mu "$NMF"
pyfit sklearn-nmf-cd "$NMF"
load "end"
"$WD/ttq" score -dir "$WD" -k "$K" <"$RES/fits.tsv" >"$RES/scored.tsv"
"$WD/ttq" plot -in "$RES/scored.tsv" -out "$RES"
"$WD/ttq" report -in "$RES/scored.tsv" >"$RES/tables.md"
sed -i "s|$WD/||" "$RES/fits.tsv"
# Into --out by the rules of scripts/outfile.sh: a linked report stays a
# link, a regular file is replaced atomically, nothing half-written.
for f in fits.tsv load.txt scored.tsv tables.md lda.png nmf.png; do
	write_over "$RES/$f" "$OUT/$f"
done
echo "== wrote $OUT/scored.tsv, tables.md, lda.png, nmf.png" >&2
