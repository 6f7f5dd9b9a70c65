#!/usr/bin/env bash
# Side-by-side benchmark: topicmf against scikit-learn and gensim on the same
# matrix, with the same K and the same number of threads (RLSI issue, item 6).
#
#   bench/side-by-side.sh [--k K] [--quick] [--key] [--iters N] [--rounds R] [--batch B] [--no-install] [--no-ttq] [--out FILE]
#
#   --k K         number of topics (default 100)
#   --quick       the scaled-down matrix (6,000 terms × 4,000 documents) and
#                 results in bench/RESULTS-quick.md (git-ignored); a few minutes
#   --key         only the key ratios: RLSI and NMF against scikit-learn NMF (mu),
#                 online VB LDA against scikit-learn and gensim, the cblas build
#                 (no LSI, Gibbs LDA or batch LDA; for a heavily loaded machine)
#   --iters N     iterations of topicmf's iterative fits (default 8; median reported)
#   --rounds R    rounds of the key RLSI / NMF / online-LDA timings (default 5; ≥ 1)
#   --batch B     minibatch size of the online VB LDA runs on every side (default 2000)
#   --no-install  skip apt-get (the Debian packages are already installed)
#   --no-ttq      skip the time-to-quality runs that follow the full benchmark
#                 (bench/time-to-quality.sh on the synthetic matrix, about 4
#                 minutes, and on 20 Newsgroups when its archive is in the data
#                 directory, about 8 under load; results in bench/ttq and
#                 bench/ttq-20newsgroups whatever --out says)
#   --out FILE    where to write the report (default bench/RESULTS.md)
#
# On a fresh Debian machine it installs python3-numpy, python3-scipy,
# python3-sklearn, python3-gensim, OpenBLAS and libopenblas-dev with apt-get
# (as root, or via sudo) and uses /usr/bin/python3, which sees those packages
# (a python3 on PATH, e.g. pyenv's, may not). It needs Go (go.mod's version)
# on PATH.
#
# Steps: build bench/cmd/writebench, bench/cmd/fitbench (also with
# -tags cblas when libopenblas-dev is installed) and bench/cmd/svdacc; write
# the benchmark matrix (engine/synthetic.Benchmark(): 30,000 terms × 20,000
# documents, ≈1.6M non-zeros) to Matrix Market; round 1 times every method
# of topicmf (fitbench, pure Go and cblas) and of the Python tools
# (pybench.py), 2 threads each, one process per method under /usr/bin/time
# for its peak RSS; svdacc scores LSI's singular values against a converged
# reference and pybench scores TruncatedSVD's against the same; rounds 2..R
# time the key RLSI/NMF/online-LDA numbers again, topicmf and the Python
# tools back to back in each, so that a shared machine's load hits both
# alike (the report gives the median of the per-round ratios); report.py
# writes the report. The full run (not --quick or --key) then runs
# bench/time-to-quality.sh, so that one command yields every number the
# docs/performance.md quotes. All of it takes about 20 minutes on 2 quiet cores.
set -euo pipefail

K=100
QUICK=0
KEY=0
ITERS=8
ROUNDS=5
BATCH=2000
INSTALL=1
TTQ=1
THREADS=2
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
ROOT="$(cd "$HERE/.." && pwd)"
OUT=""
ARGS="$*"
while [ $# -gt 0 ]; do
	case "$1" in
	--k) K="${2:?--k needs a value}"; shift 2 ;;
	--k=*) K="${1#--k=}"; shift ;;
	--quick) QUICK=1; shift ;;
	--key) KEY=1; shift ;;
	--iters) ITERS="${2:?--iters needs a value}"; shift 2 ;;
	--iters=*) ITERS="${1#--iters=}"; shift ;;
	--rounds) ROUNDS="${2:?--rounds needs a value}"; shift 2 ;;
	--rounds=*) ROUNDS="${1#--rounds=}"; shift ;;
	--batch) BATCH="${2:?--batch needs a value}"; shift 2 ;;
	--batch=*) BATCH="${1#--batch=}"; shift ;;
	--no-install) INSTALL=0; shift ;;
	--no-ttq) TTQ=0; shift ;;
	--out) OUT="${2:?--out needs a value}"; shift 2 ;;
	--out=*) OUT="${1#--out=}"; shift ;;
	-h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "side-by-side.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
	esac
done
case "$K" in ''|*[!0-9]*|0) echo "side-by-side.sh: --k $K: want a positive integer" >&2; exit 2 ;; esac
case "$ROUNDS" in ''|*[!0-9]*|0) echo "side-by-side.sh: --rounds $ROUNDS: want a positive integer" >&2; exit 2 ;; esac
case "$ITERS" in ''|*[!0-9]*|0) echo "side-by-side.sh: --iters $ITERS: want a positive integer" >&2; exit 2 ;; esac
case "$BATCH" in ''|*[!0-9]*|0) echo "side-by-side.sh: --batch $BATCH: want a positive integer" >&2; exit 2 ;; esac
if [ -z "$OUT" ]; then
	if [ "$QUICK" = 1 ]; then OUT="$HERE/RESULTS-quick.md"; else OUT="$HERE/RESULTS.md"; fi
fi
PY=/usr/bin/python3

if [ "$INSTALL" = 1 ]; then
	SUDO=""
	if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
	echo "== apt-get: python3-numpy python3-scipy python3-sklearn python3-gensim libopenblas0-pthread libopenblas-dev" >&2
	$SUDO apt-get update -q >&2
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q python3-numpy python3-scipy \
		python3-sklearn python3-gensim python3-threadpoolctl libopenblas0-pthread libopenblas-dev >&2
fi
$PY -c 'import numpy, scipy, sklearn, gensim' || {
	echo "side-by-side.sh: $PY cannot import numpy/scipy/sklearn/gensim (run without --no-install)" >&2
	exit 1
}

WD="$(mktemp -d "${TMPDIR:-/tmp}/topicmf-bench.XXXXXX")"
trap 'rm -rf "$WD"' EXIT
load() { echo "$(date -u +%H:%M:%S) $1: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$WD/load.txt"; }

echo "== building bench/cmd/writebench, bench/cmd/fitbench and bench/cmd/svdacc" >&2
(cd "$ROOT" && go build -o "$WD/writebench" ./bench/cmd/writebench && go build -o "$WD/fitbench" ./bench/cmd/fitbench &&
	go build -o "$WD/svdacc" ./bench/cmd/svdacc)
CBLAS=0
if [ -e /usr/include/x86_64-linux-gnu/cblas.h ] || [ -e /usr/include/cblas.h ]; then
	echo "== building bench/cmd/fitbench -tags cblas (OpenBLAS, one thread)" >&2
	(cd "$ROOT" && go build -tags cblas -o "$WD/fitbench-cblas" ./bench/cmd/fitbench) && CBLAS=1
else
	echo "== no libopenblas-dev: the cblas build is skipped" >&2
fi
QFLAG=""
if [ "$QUICK" = 1 ]; then QFLAG=-quick; fi
"$WD/writebench" $QFLAG -o "$WD/bench.mtx" | tr '\t' ' ' >"$WD/matrix.txt"
echo "== matrix: $(cat "$WD/matrix.txt")" >&2

export GOMAXPROCS=$THREADS OMP_NUM_THREADS=$THREADS OPENBLAS_NUM_THREADS=$THREADS MKL_NUM_THREADS=$THREADS
{
	echo "k=$K"
	echo "threads=$THREADS"
	echo "command=bench/side-by-side.sh${ARGS:+ $ARGS}"
	echo "go=$(go version)"
	echo "batch=$BATCH"
	echo "cblas=$CBLAS"
	echo "key=$KEY"
} >"$WD/meta.txt"

# gorun TAG FILE METHODS: fitbench (TAG "" or "-cblas"), one process per
# method, appending its line (method name + TAG) to FILE and its peak RSS
# (KiB, /usr/bin/time) to $WD/rss.tsv.
gorun() {
	local tag="$1" file="$2" m
	for m in ${3//,/ }; do
		# OPENBLAS_NUM_THREADS=1: OpenBLAS starts no worker threads at load
		# (the cblas build also sets one thread at init; the pool is the one
		# level of parallelism).
		OPENBLAS_NUM_THREADS=1 /usr/bin/time -f "$m$tag	%M" -a -o "$WD/rss.tsv" "$WD/fitbench$tag" -mm "$WD/bench.mtx" -k "$K" \
			-iters "$ITERS" -batch "$BATCH" -methods "$m" | sed "s/^$m	/$m$tag	/" | tee -a "$file" >&2
	done
}
# pyrun FILE METHODS: pybench.py, one process per method, as gorun.
pyrun() {
	local file="$1" m
	for m in ${2//,/ }; do
		/usr/bin/time -f "$m	%M" -a -o "$WD/rss.tsv" $PY "$HERE/pybench.py" "$WD/bench.mtx" "$K" "$m" \
			"batch=$BATCH" "sigma=$WD/sigma.txt" | tee -a "$file" >&2
	done
}

GO1=rlsi,nmf,lsi,lsi-sk,lda,onlinelda CB1=rlsi,nmf,lsi,lsi-sk
PY1=nmf-mu,nmf-cd,tsvd,tsvd-acc,sklearn-lda,gensim-lda,sklearn-olda,gensim-olda
if [ "$KEY" = 1 ]; then
	GO1=rlsi,nmf,onlinelda CB1=rlsi,nmf PY1=nmf-mu,sklearn-olda,gensim-olda
fi
load "start"
echo "== round 1: topicmf (K = $K, $ITERS iterations each)" >&2
gorun "" "$WD/go.tsv" "$GO1"
load "after topicmf round 1"
if [ "$CBLAS" = 1 ]; then
	echo "== round 1: topicmf -tags cblas" >&2
	gorun -cblas "$WD/go.tsv" "$CB1"
	load "after topicmf cblas round 1"
fi
if [ "$KEY" = 0 ]; then
	echo "== round 1: LSI accuracy against a converged reference (svdacc)" >&2
	"$WD/svdacc" -mm "$WD/bench.mtx" -k "$K" -settings "lsi,accurate" -ref-out "$WD/sigma.txt" | tee "$WD/svdacc.tsv" >&2
	load "after svdacc"
fi
echo "== round 1: scikit-learn and gensim (K = $K)" >&2
pyrun "$WD/py.tsv" "$PY1"
load "after Python round 1"
for r in $(seq 2 "$ROUNDS"); do
	echo "== round $r: the key RLSI / NMF / online-LDA numbers again" >&2
	"$WD/fitbench" -mm "$WD/bench.mtx" -k "$K" -iters "$ITERS" -batch "$BATCH" -methods rlsi,nmf,onlinelda | tee "$WD/go$r.tsv" >&2
	if [ "$CBLAS" = 1 ]; then
		OPENBLAS_NUM_THREADS=1 "$WD/fitbench-cblas" -mm "$WD/bench.mtx" -k "$K" -iters "$ITERS" -methods rlsi,nmf |
			sed 's/^\([a-z]*\)	/\1-cblas	/' | tee -a "$WD/go$r.tsv" >&2
	fi
	$PY "$HERE/pybench.py" "$WD/bench.mtx" "$K" "$([ "$KEY" = 1 ] && echo nmf-mu,sklearn-olda,gensim-olda || echo nmf-mu,nmf-cd,sklearn-olda,gensim-olda)" \
		"batch=$BATCH" | tee "$WD/py$r.tsv" >&2
	load "after round $r"
done

$PY "$HERE/report.py" "$OUT" "$WD"
echo "== wrote $OUT" >&2

if [ "$TTQ" = 1 ] && [ "$QUICK" = 0 ] && [ "$KEY" = 0 ]; then
	echo "== time to quality: bench/time-to-quality.sh (results in bench/ttq)" >&2
	bash "$HERE/time-to-quality.sh"
	NEWS="${TOPICMF_DATA:-$ROOT/../shared/datasets}/20newsgroups/20news-bydate.tar.gz"
	if [ -f "$NEWS" ]; then
		echo "== time to quality on 20 Newsgroups (results in bench/ttq-20newsgroups)" >&2
		bash "$HERE/time-to-quality.sh" --data 20newsgroups
	else
		echo "== no $NEWS: time to quality on 20 Newsgroups skipped" >&2
	fi
fi
