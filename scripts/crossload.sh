#!/usr/bin/env bash
# Cross-build check of saved models: a run written by a `-tags cblas` build
# (dense kernels in OpenBLAS; needs libopenblas-dev) is loaded by the pure-Go
# build, and its fold-in of new documents agrees with the cblas build's
# within floating-point tolerance. For every catalog family, the script fits
# a small model with the cblas build, transforms the same new documents with
# both builds from that run's saved model (engine/modelio), and compares the
# two outputs entry by entry: |a − b| ≤ TOL·max(1, |a|, |b|) (TOL defaults
# to 1e-9). The state a model derives on load (Gram matrices and their
# inverses) is computed by the loading build's kernels, so the two builds
# may differ in the last bits, never more.
#
#   TOPICMF_DATA=/path/to/datasets scripts/crossload.sh [FAMILY...]
set -euo pipefail
cd "$(dirname "$0")/.."

tol="${TOL:-1e-9}"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

go build -o "$work/topicmf-go" ./cmd/topicmf
go build -tags cblas -o "$work/topicmf-cblas" ./cmd/topicmf

# New documents: neither collection holds them.
cat >"$work/new.jsonl" <<'DOCS'
{"id": "q1", "text": "pressure distribution on a slender wing at supersonic speed and the boundary layer transition"}
{"id": "q2", "text": "heat transfer in laminar flow over a flat plate with suction"}
{"id": "q3", "text": "a funny and moving film with a great cast, though the plot drags in the second half"}
{"id": "q4", "text": "the director wastes a good story; the acting is wooden and the script is dull"}
{"id": "q5", "text": "buckling of thin cylindrical shells under axial compression"}
DOCS

# family → its fit arguments: a small, quick model. The group families
# need class labels: a 200-review fold of movie-review (pos / neg).
declare -A args=(
	[nmf]="-k 5 --param iters=20 --data cranfield"
	[nmf-anls]="-k 5 --param iters=10 --data cranfield"
	[snmf]="-k 5 --param iters=10 --data cranfield"
	[rlsi]="-k 5 --param iters=10 --data cranfield"
	[lsi]="-k 5 --data cranfield"
	[plsi]="-k 5 --param iters=20 --data cranfield"
	[lda]="-k 5 --param iters=50 --data cranfield"
	[onlinelda]="-k 5 --param passes=2 --data cranfield"
	[nmfe]="-k 5 --param iters=20 --data cranfield"
	[nmfi]="-k 5 --param iters=20 --data cranfield"
	[graphnmf]="-k 5 --param iters=20 --data cranfield"
	[symnmf]="-k 5 --param iters=20 --data cranfield"
	[tnmf]="-k 5 --param iters=10 --data cranfield"
	[jtd]="-k 5 --param iters=5 --data movie-review --split 0"
	[grouprlsi]="--param ks=3 --param kc=2 --param iters=10 --data movie-review --split 0"
	[crlsi]="--param kc=3 --param iters=10 --data movie-review --split 0"
	[groupnmf]="--param ks=3 --param kc=2 --param iters=10 --data movie-review --split 0"
	[cnmf]="--param kc=3 --param iters=10 --data movie-review --split 0"
	[gnmfnc]="--param ks=3 --param kp=2 --param iters=10 --data movie-review --split 0"
)
families=("$@")
if [ ${#families[@]} -eq 0 ]; then
	mapfile -t families < <("$work/topicmf-go" models | awk '/^[a-z]/ { print $1 }')
fi

failed=0
for fam in "${families[@]}"; do
	if [ -z "${args[$fam]:-}" ]; then
		echo "$fam: no fit arguments in scripts/crossload.sh" >&2
		failed=1
		continue
	fi
	# shellcheck disable=SC2086 # the arguments are words
	run=$("$work/topicmf-cblas" fit --model "$fam" ${args[$fam]} --out "$work/results" --quiet 2>&1 | sed -n 's/^wrote: //p')
	if [ -z "$run" ]; then
		echo "$fam: the cblas fit wrote no run" >&2
		failed=1
		continue
	fi
	"$work/topicmf-cblas" transform "$run" --data "$work/new.jsonl" --output "$work/$fam.cblas.tsv"
	"$work/topicmf-go" transform "$run" --data "$work/new.jsonl" --output "$work/$fam.go.tsv"
	if ! awk -F'\t' -v tol="$tol" -v fam="$fam" '
		function abs(x) { return x < 0 ? -x : x }
		NR == FNR { line[FNR] = $0; next }
		{
			n = split(line[FNR], a, "\t")
			if (n != NF) { printf "%s: line %d has %d fields in one output, %d in the other\n", fam, FNR, n, NF; bad = 1; exit }
			for (i = 1; i <= NF; i++) {
				if (FNR == 1 || i == 1) { if (a[i] != $i) { printf "%s: line %d field %d: %s vs %s\n", fam, FNR, i, a[i], $i; bad = 1 }; continue }
				d = abs(a[i] - $i); s = abs(a[i]) > abs($i) ? abs(a[i]) : abs($i); if (s < 1) s = 1
				if (d / s > worst) worst = d / s
				if (d > tol * s) { printf "%s: line %d field %d: %s vs %s\n", fam, FNR, i, a[i], $i; bad = 1 }
			}
			rows++
		}
		END { if (!bad) printf "%-10s pure-Go load of the cblas run: %d documents, largest relative difference %.3g\n", fam, rows - 1, worst; exit bad }
	' "$work/$fam.cblas.tsv" "$work/$fam.go.tsv"; then
		failed=1
	fi
done
exit $failed
