#!/usr/bin/env bash
# Executes every notebook under notebooks/ (gonb) and notebooks/gophernotes/
# headless, each with the kernel its metadata names and into a temporary
# copy, and checks it (notebook/internal/nbcheck): no failing cell, an
# inline image in every cell that draws, figures stored once (no text copy
# of a PNG), no module download chatter, and the same outputs as the
# committed notebook (text exactly, figures by approximate image
# comparison). A failing cell does not stop the run: nbcheck reports it
# with the line it wrote to standard error (nb.Check's one line; gonb itself
# reports only "exit status 1").
#
#   scripts/run-notebooks.sh [--update] [NOTEBOOK.ipynb...]
#
# --update rewrites the committed notebooks with the fresh outputs (after
# the same checks, without the comparison). Runs go to a fresh temporary
# results store ($TOPICMF_RESULTS), shared by the notebooks of one call, so
# every job is computed once, in quick mode as the notebooks are committed.
# The kernels are the ones scripts/install-notebook-tools.sh installs, run
# with this checkout and $TOPICMF_DATA in their environment (temporary
# kernel specs, which take precedence over the installed ones).
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
[ ${#notebooks[@]} -gt 0 ] || notebooks=(notebooks/*.ipynb notebooks/gophernotes/*.ipynb)

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
export TOPICMF_RESULTS="$out/results"
go build -o "$out/nbcheck" ./notebook/internal/nbcheck

# The installed kernel specs, with this checkout and the data directory in
# their environment, under $out/jupyter (first on JUPYTER_PATH).
jupyter kernelspec list --json 2>/dev/null | /usr/bin/python3 -c '
import json, os, shutil, sys
out, root, data = sys.argv[1:]
for name, k in json.load(sys.stdin)["kernelspecs"].items():
    if name not in ("gonb", "gophernotes"):
        continue
    dst = os.path.join(out, "kernels", name)
    shutil.copytree(k["resource_dir"], dst)
    spec = k["spec"]
    env = spec.setdefault("env", {})
    env.update(TOPICMF_CHECKOUT=root, TOPICMF_DATA=data)
    if name == "gophernotes":
        env["GOMACRO_REPLACE"] = "github.com/topicmf/topicmf=" + root
    json.dump(spec, open(os.path.join(dst, "kernel.json"), "w"), indent=1)
' "$out/jupyter" "$root" "$TOPICMF_DATA"
export JUPYTER_PATH="$out/jupyter${JUPYTER_PATH:+:$JUPYTER_PATH}"

status=0
for nb in "${notebooks[@]}"; do
	kernel=$(/usr/bin/python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["metadata"]["kernelspec"]["name"])' "$nb")
	echo "-- executing $nb ($kernel)"
	start=$(date +%s)
	dir="$out/executed/$(dirname "$nb")"
	executed="$dir/$(basename "$nb")"
	if ! jupyter nbconvert --to notebook --execute --ExecutePreprocessor.timeout=1800 \
		--ExecutePreprocessor.kernel_name="$kernel" --ExecutePreprocessor.record_timing=False \
		--ExecutePreprocessor.allow_errors=True \
		--output-dir "$dir" "$nb" >"$out/log" 2>&1; then
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
