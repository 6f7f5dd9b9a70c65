#!/usr/bin/env bash
# Executes every notebook under notebooks/ headless with the gonb kernel and
# fails if any cell fails. Executed copies go to a temporary directory; the
# committed notebooks are not rewritten (pass --inplace to refresh them).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)
bin="${TOPICMF_TOOLS_BIN:-$HOME/.local/share/topicmf/bin}"
export PATH="$bin:$PATH"
# Cells reach this checkout through TOPICMF_ROOT (see the notebooks' first cell).
export TOPICMF_ROOT="$root"
export TOPICMF_DATA="${TOPICMF_DATA:-$(cd .. && pwd)/shared/datasets}"

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
inplace=false
[ "${1:-}" = "--inplace" ] && inplace=true

status=0
for nb in notebooks/*.ipynb; do
	echo "-- executing $nb"
	if $inplace; then
		args=(--inplace)
	else
		args=(--output-dir "$out")
	fi
	if ! jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=900 \
		--ExecutePreprocessor.kernel_name=gonb "${args[@]}" "$nb" 2>"$out/err.log"; then
		echo "FAILED: $nb"; tail -40 "$out/err.log"; status=1
		continue
	fi
	# A notebook that draws must show its figures inline: count image outputs.
	executed="$out/$(basename "$nb")"
	$inplace && executed="$nb"
	images=$(/usr/bin/python3 -c 'import json,sys; nb=json.load(open(sys.argv[1])); print(sum("image/png" in o.get("data",{}) or "image/svg+xml" in o.get("data",{}) for c in nb["cells"] for o in c.get("outputs",[])))' "$executed")
	if grep -q 'gonbui.Display' "$nb" && [ "$images" -eq 0 ]; then
		echo "FAILED: $nb draws figures but shows none inline"; status=1
	else
		echo "   ok, $images inline figure(s)"
	fi
done
exit $status
