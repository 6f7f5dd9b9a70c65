#!/usr/bin/env bash
# Points the gonb kernel's cell module at a topicmf checkout, so that cells
# can import github.com/topicmf/topicmf/...; run by the first cell of every
# notebook (see docs/notebooks.md):
#
#   !*"${TOPICMF_ROOT:-$TOPICMF_CHECKOUT}/scripts/gonb-setup.sh"
#
# gonb runs `!*` commands in the kernel's temporary Go module. The checkout
# is the folder above this script; the replace directive lets gonb's
# goimports resolve it (what gonb's %goworkfix does, without its output,
# which names the local path), and topicmf's direct requirements are
# required at its versions, so that a cell can import them (gota, gonum)
# without gonb asking the module proxy for them. The gonb module (for gonbui's inline
# display) is added at the version pinned in tools/gonb/go.mod. Prints
# nothing unless something fails.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
version=$(awk '$1 == "github.com/janpfeifer/gonb" { print $2 }' "$root/tools/gonb/go.mod")
log=$(mktemp)
trap 'rm -f "$log"' EXIT
if ! { rm -f go.work go.work.sum && go work init && go work use . "$root" &&
	go mod edit -replace "github.com/topicmf/topicmf=$root" -require "github.com/topicmf/topicmf@v0.0.0" &&
	go mod edit $(go mod edit -json "$root/go.mod" |
		python3 -c 'import json,sys; print(" ".join("-require=%s@%s" % (r["Path"], r["Version"]) for r in json.load(sys.stdin)["Require"] if not r.get("Indirect")))') &&
	go get "github.com/janpfeifer/gonb@$version"; } >"$log" 2>&1; then
	cat "$log" >&2
	echo "gonb-setup: could not point this notebook at $root" >&2
	exit 1
fi
