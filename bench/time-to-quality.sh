#!/usr/bin/env bash
# Time to quality (issue 16, item 4; on real data, issue 28, item 4):
# (seconds, quality) along the fits of topicmf and of scikit-learn / gensim
# on one corpus, scored by one program.
#
#   bench/time-to-quality.sh [--data synthetic|20newsgroups] [--k K] [--docs N] [--batch B] [--out DIR]
#
# --data synthetic (the default) is the quick benchmark matrix
# (engine/synthetic.Benchmark() scaled to 6,000 terms × 4,000 documents,
# bench/cmd/writebench -quick), of which the first N documents are used
# (default 2,000: on the shared 2-core machine, where a scikit-learn online
# pass over all 4,000 at K = 100 took two minutes); defaults K = 50, results
# in bench/ttq. --data 20newsgroups is the training split of 20 Newsgroups
# (11,314 posts, from $TOPICMF_DATA, default ../shared/datasets beside the
# repository) through the command line's default text pipeline with raw
# counts (`ttq split -data`); defaults K = 20 and a seeded draw of 4,000 of
# the 11,314 posts (23,430 terms; --docs 0 takes all of them: 42,458 terms,
# about 3× the work), results in bench/ttq-20newsgroups. Either way Go writes the matrix once
# (Matrix Market) and both sides read that file. `ttq split` holds out every
# tenth document and splits its counts into an observed and a held half.
#
# Every model is fitted from scratch for a rising number of iterations (the
# same seed, so each fit is a checkpoint of one run) and the whole fit is
# timed, 2 threads on each side. Within a family the fits are interleaved:
# every model's first checkpoint, then every model's second, and so on, so
# that a shared machine's changing load falls on topicmf and its peers
# alike.
#
#   LDA  topicmf Gibbs (lda), topicmf online VB (onlinelda), scikit-learn
#        online VB, gensim LdaModel, and scikit-learn batch VB on the
#        synthetic matrix (not on 20 Newsgroups, to keep the run within
#        minutes on a shared machine); quality = held-out perplexity
#        with document completion, computed for every model by `ttq score`
#        from its topics alone (formula in bench/cmd/ttq/main.go)
#   NMF  topicmf MU (nmf) from its default random init and from nndsvda
#        (scikit-learn's default init), ANLS (nmf-anls), scikit-learn NMF
#        mu and cd; quality = ‖D − UVᵀ‖²_F of the training matrix
#   LSI  topicmf lsi and scikit-learn TruncatedSVD (randomized, oversampling
#        10 on both), the checkpoints being power iterations; quality =
#        ‖D − U Uᵀ D‖²_F of the training matrix, computed for both by
#        `ttq score` from the basis U alone
#
# Checkpoints: Gibbs sweeps 10, 30, 100 (synthetic: and 300); VB passes
# 1, 2, 4 (synthetic: and 8); NMF iterations 1, 3, 10, 30 (synthetic: and
# 100); LSI power iterations 0, 1, 2, 5, 10.
#
# Output in DIR: fits.tsv (raw), scored.tsv (label, n, seconds, perplexity
# or objective), tables.md (`ttq report`: each model's seconds to get within
# 50, 30, 20, 10, 5, 2, 1 % of the best found (LSI: 1 to 0.001 %), the
# ratios topicmf / peer, and every checkpoint), lda.png, nmf.png, lsi.png,
# load.txt (/proc/loadavg before each round). Needs Go and Debian's
# python3-sklearn and python3-gensim (bench/side-by-side.sh installs them).
set -euo pipefail

DATA=synthetic
K=""
DOCS=""
BATCH=500
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
OUT=""
while [ $# -gt 0 ]; do
	case "$1" in
	--data) DATA="${2:?--data needs a value}"; shift 2 ;;
	--k) K="${2:?--k needs a value}"; shift 2 ;;
	--docs) DOCS="${2:?--docs needs a value}"; shift 2 ;;
	--batch) BATCH="${2:?--batch needs a value}"; shift 2 ;;
	--out) OUT="${2:?--out needs a value}"; shift 2 ;;
	-h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "time-to-quality.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
	esac
done
case "$DATA" in
synthetic)
	K="${K:-50}" DOCS="${DOCS:-2000}" OUT="${OUT:-$HERE/ttq}"
	GIBBS=10,30,100,300 VB=1,2,4,8 NMF=1,3,10,30,100 BATCHVB=1,2,4,8 ;;
20newsgroups)
	K="${K:-20}" DOCS="${DOCS:-4000}" OUT="${OUT:-$HERE/ttq-20newsgroups}"
	GIBBS=10,30,100 VB=1,2,4 NMF=1,3,10,30 BATCHVB=""
	export TOPICMF_DATA="${TOPICMF_DATA:-$ROOT/../shared/datasets}" ;;
*) echo "time-to-quality.sh: --data $DATA: want synthetic or 20newsgroups" >&2; exit 2 ;;
esac
LSI=0,1,2,5,10
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
if [ "$DATA" = synthetic ]; then
	"$WD/writebench" -quick -o "$WD/bench.mtx" >&2
	"$WD/ttq" split -mm "$WD/bench.mtx" -docs "$DOCS" -dir "$WD"
else
	"$WD/ttq" split -data "$DATA" -docs "$DOCS" -dir "$WD"
fi

# The results are made in $RES and copied into --out at the end.
RES="$WD/results"
mkdir -p "$RES"
: >"$RES/fits.tsv"
{
	echo "data=$DATA k=$K docs=$DOCS batch=$BATCH threads=2 go=$(go version | cut -d' ' -f3) commit=$(cd "$ROOT" && git rev-parse --short HEAD)"
	echo "date $(date -u +%Y-%m-%d) (UTC); /proc/loadavg (1, 5, 15 minutes) before each round:"
} >"$RES/load.txt"
load() { echo "$(date -u +%H:%M:%S) $1: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$RES/load.txt"; }

# fit MODEL N: the fit of N iterations of MODEL, "label:family[:params]"
# for topicmf (family and -param of `ttq fit`), "label" for bench/ttq.py.
fit() {
	local rest="${1#*:}"
	case "$1" in
	topicmf-*) "$WD/ttq" fit -dir "$WD" -k "$K" -batch "$BATCH" -label "${1%%:*}" -family "${rest%%:*}" \
		-param "$([ "$rest" = "${rest#*:}" ] || echo "${rest#*:}")" -at "$2" ;;
	*) $PY "$HERE/ttq.py" "$WD" "$K" "$1" "$2" "batch=$BATCH" ;;
	esac | tee -a "$RES/fits.tsv" >&2
}
# family AT1 MODEL1 AT2 MODEL2 ...: round i fits every model's i-th count.
family() {
	local -a ats models
	while [ $# -gt 0 ]; do ats+=("$1"); models+=("$2"); shift 2; done
	local i=0 more=1 j counts
	while [ $more = 1 ]; do
		more=0
		load "round $((i + 1)) of ${models[*]%%:*}"
		for j in "${!models[@]}"; do
			IFS=, read -r -a counts <<<"${ats[$j]}"
			if [ "$i" -lt "${#counts[@]}" ]; then
				fit "${models[$j]}" "${counts[$i]}"
				more=1
			fi
		done
		i=$((i + 1))
	done
}
family "$GIBBS" topicmf-gibbs:lda "$VB" topicmf-onlinevb:onlinelda "$VB" sklearn-lda-online \
	"$VB" gensim-lda ${BATCHVB:+"$BATCHVB" sklearn-lda-batch}
family "$NMF" topicmf-nmf-mu:nmf "$NMF" topicmf-nmf-mu-nndsvda:nmf:init=nndsvda "$NMF" topicmf-nmf-anls:nmf-anls \
	"$NMF" sklearn-nmf-mu "$NMF" sklearn-nmf-cd
family "$LSI" topicmf-lsi:lsi "$LSI" sklearn-tsvd
load "end"
"$WD/ttq" score -dir "$WD" -k "$K" <"$RES/fits.tsv" >"$RES/scored.tsv"
"$WD/ttq" plot -in "$RES/scored.tsv" -out "$RES" -title "$DATA, K = $K"
"$WD/ttq" report -in "$RES/scored.tsv" >"$RES/tables.md"
sed -i "s|$WD/||" "$RES/fits.tsv"
# Into --out by the rules of scripts/outfile.sh: a linked report stays a
# link, a regular file is replaced atomically, nothing half-written.
for f in fits.tsv load.txt scored.tsv tables.md lda.png nmf.png lsi.png; do
	write_over "$RES/$f" "$OUT/$f"
done
echo "== wrote $OUT/scored.tsv, tables.md, lda.png, nmf.png, lsi.png" >&2
