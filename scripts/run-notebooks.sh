#!/usr/bin/env bash
# Executes every notebook under notebooks/ headless with the gonb kernel,
# each into a temporary copy, and checks it (notebook/internal/nbcheck):
# no failing cell, an inline image in every cell that draws, no module
# download chatter, and the same outputs as the committed notebook
# (text exactly, figures by approximate image comparison).
#
#   scripts/run-notebooks.sh [--update] [NOTEBOOK.ipynb...]
#
# --update rewrites the committed notebooks with the fresh outputs (after
# the same checks, without the comparison). Runs go to a fresh temporary
# results store ($TOPICMF_RESULTS), so every job is computed, in quick mode
# as the notebooks are committed. Needs scripts/install-notebook-tools.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bin="${TOPICMF_TOOLS_BIN:-$HOME/.local/share/topicmf/bin}"
export PATH="$bin:$PATH"
# The notebooks' first cell points the kernel at $TOPICMF_ROOT: this checkout.
export TOPICMF_ROOT="$root"
export TOPICMF_DATA="${TOPICMF_DATA:-$(cd .. && pwd)/shared/datasets}"
case "$TOPICMF_DATA" in /*) ;; *) TOPICMF_DATA="$root/$TOPICMF_DATA" ;; esac

# shellcheck source=scripts/outfile.sh
. "$root/scripts/outfile.sh"

update=false
if [ "${1:-}" = "--update" ]; then
	update=true
	shift
fi
notebooks=("$@")
[ ${#notebooks[@]} -gt 0 ] || notebooks=(notebooks/*.ipynb)

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export TOPICMF_RESULTS="$out/results"
go build -o "$out/nbcheck" ./notebook/internal/nbcheck

status=0
for nb in "${notebooks[@]}"; do
	echo "-- executing $nb"
	start=$(date +%s)
	executed="$out/$(basename "$nb")"
	if ! jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=1800 \
		--ExecutePreprocessor.kernel_name=gonb --ExecutePreprocessor.record_timing=False \
		--output-dir "$out" "$nb" >"$out/log" 2>&1; then
		echo "FAILED: $nb"
		grep -v '^\(I\|W\)[0-9]\{4\} ' "$out/log" | grep -v 'Debugger\|frozen modules\|PYDEVD\|^0.00s' | tail -40
		status=1
		continue
	fi
	secs=$(($(date +%s) - start))
	if $update; then
		if "$out/nbcheck" "$executed"; then
			write_over "$executed" "$nb" || status=1
			echo "   updated ($secs s)"
		else
			echo "FAILED: $nb (not updated)"
			status=1
		fi
	elif "$out/nbcheck" "$executed" "$nb"; then
		echo "   ok: outputs agree with the committed ones ($secs s)"
	else
		echo "FAILED: $nb"
		status=1
	fi
done
exit $status
