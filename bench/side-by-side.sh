#!/usr/bin/env bash
# Side-by-side benchmark: topicmf against scikit-learn and gensim on the same
# matrix, with the same K and the same number of threads (RLSI issue, item 6).
#
#   bench/side-by-side.sh [--k K] [--quick] [--iters N] [--rounds R] [--no-install] [--out FILE]
#
#   --k K         number of topics (default 100)
#   --quick       the scaled-down matrix (6,000 terms × 4,000 documents) and
#                 results in bench/RESULTS-quick.md (git-ignored); ~2 minutes
#   --iters N     iterations of topicmf's iterative fits (default 8; median reported)
#   --rounds R    rounds of the key RLSI / NMF timings (default 5; ≥ 1)
#   --no-install  skip apt-get (the Debian packages are already installed)
#   --out FILE    where to write the report (default bench/RESULTS.md)
#
# On a fresh Debian machine it installs python3-numpy, python3-scipy,
# python3-sklearn, python3-gensim and OpenBLAS with apt-get (as root, or via
# sudo) and uses /usr/bin/python3, which sees those packages (a python3 on
# PATH, e.g. pyenv's, may not). It needs Go (go.mod's version) on PATH.
#
# Steps: build bench/cmd/writebench and bench/cmd/fitbench; write the
# benchmark matrix (engine/synthetic.Benchmark(): 30,000 terms × 20,000
# documents, ≈1.6M non-zeros) to Matrix Market; time topicmf (fitbench) and
# the Python tools (pybench.py) on it, 2 threads each (round 1); time the key
# RLSI/NMF numbers in rounds 2..R, topicmf and scikit-learn back to back in
# each, so that a shared machine's load hits both alike (the report gives the
# median of the per-round ratios); write the report with bench/report.py.
# The full run takes about 8 minutes on 2 cores.
set -euo pipefail

K=100
QUICK=0
ITERS=8
ROUNDS=5
INSTALL=1
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
	--iters) ITERS="${2:?--iters needs a value}"; shift 2 ;;
	--iters=*) ITERS="${1#--iters=}"; shift ;;
	--rounds) ROUNDS="${2:?--rounds needs a value}"; shift 2 ;;
	--rounds=*) ROUNDS="${1#--rounds=}"; shift ;;
	--no-install) INSTALL=0; shift ;;
	--out) OUT="${2:?--out needs a value}"; shift 2 ;;
	--out=*) OUT="${1#--out=}"; shift ;;
	-h|--help) sed -n '2,/^set -e/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
	*) echo "side-by-side.sh: unknown option $1 (try --help)" >&2; exit 2 ;;
	esac
done
case "$K" in ''|*[!0-9]*|0) echo "side-by-side.sh: --k $K: want a positive integer" >&2; exit 2 ;; esac
case "$ROUNDS" in ''|*[!0-9]*|0) echo "side-by-side.sh: --rounds $ROUNDS: want a positive integer" >&2; exit 2 ;; esac
case "$ITERS" in ''|*[!0-9]*|0) echo "side-by-side.sh: --iters $ITERS: want a positive integer" >&2; exit 2 ;; esac
if [ -z "$OUT" ]; then
	if [ "$QUICK" = 1 ]; then OUT="$HERE/RESULTS-quick.md"; else OUT="$HERE/RESULTS.md"; fi
fi
PY=/usr/bin/python3

if [ "$INSTALL" = 1 ]; then
	SUDO=""
	if [ "$(id -u)" != 0 ]; then SUDO=sudo; fi
	echo "== apt-get: python3-numpy python3-scipy python3-sklearn python3-gensim libopenblas0-pthread" >&2
	$SUDO apt-get update -q >&2
	DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q python3-numpy python3-scipy \
		python3-sklearn python3-gensim python3-threadpoolctl libopenblas0-pthread >&2
fi
$PY -c 'import numpy, scipy, sklearn, gensim' || {
	echo "side-by-side.sh: $PY cannot import numpy/scipy/sklearn/gensim (run without --no-install)" >&2
	exit 1
}

WD="$(mktemp -d "${TMPDIR:-/tmp}/topicmf-bench.XXXXXX")"
trap 'rm -rf "$WD"' EXIT
load() { echo "$(date -u +%H:%M:%S) $1: $(cut -d' ' -f1-3 /proc/loadavg)" >>"$WD/load.txt"; }

echo "== building bench/cmd/writebench and bench/cmd/fitbench" >&2
(cd "$ROOT" && go build -o "$WD/writebench" ./bench/cmd/writebench && go build -o "$WD/fitbench" ./bench/cmd/fitbench)
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
} >"$WD/meta.txt"

load "start"
echo "== round 1: topicmf (K = $K, $ITERS iterations each)" >&2
"$WD/fitbench" -mm "$WD/bench.mtx" -k "$K" -iters "$ITERS" | tee "$WD/go.tsv" >&2
load "after topicmf round 1"
echo "== round 1: scikit-learn and gensim (K = $K)" >&2
$PY "$HERE/pybench.py" "$WD/bench.mtx" "$K" | tee "$WD/py.tsv" >&2
load "after Python round 1"
for r in $(seq 2 "$ROUNDS"); do
	echo "== round $r: the key RLSI / NMF numbers again" >&2
	"$WD/fitbench" -mm "$WD/bench.mtx" -k "$K" -iters "$ITERS" -methods rlsi,nmf | tee "$WD/go$r.tsv" >&2
	$PY "$HERE/pybench.py" "$WD/bench.mtx" "$K" nmf-mu,nmf-cd | tee "$WD/py$r.tsv" >&2
	load "after round $r"
done

$PY "$HERE/report.py" "$OUT" "$WD"
echo "== wrote $OUT" >&2
