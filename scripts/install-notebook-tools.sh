#!/usr/bin/env bash
# Installs what the notebooks need, in one step, on a Debian machine:
#   - Jupyter from Debian's packages: the notebook server (`jupyter
#     notebook`) and the headless executor (nbconvert, nbclient);
#   - the gonb Go kernel and goimports, built at the versions pinned in
#     tools/gonb/go.mod, into $TOPICMF_TOOLS_BIN (default
#     ~/.local/share/topicmf/bin);
#   - the kernel's environment: TOPICMF_CHECKOUT (this checkout) and PATH
#     (with the tools), so that a notebook in any folder imports topicmf
#     with its first cell:
#         !*"${TOPICMF_ROOT:-$TOPICMF_CHECKOUT}/scripts/gonb-setup.sh"
# Idempotent; apt-get runs only when a package is missing (as root, or
# through sudo when there is one).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$(pwd)

missing=()
command -v jupyter-notebook >/dev/null 2>&1 || missing+=(jupyter-notebook)
command -v jupyter-nbconvert >/dev/null 2>&1 || missing+=(jupyter-nbconvert)
/usr/bin/python3 -c 'import nbclient, jupyter_client, ipykernel' 2>/dev/null ||
	missing+=(jupyter-client python3-nbclient python3-ipykernel)
if [ ${#missing[@]} -gt 0 ]; then
	sudo=()
	[ "$(id -u)" -eq 0 ] || sudo=(sudo)
	export DEBIAN_FRONTEND=noninteractive
	"${sudo[@]}" apt-get update -qq
	"${sudo[@]}" apt-get install -y -qq "${missing[@]}" >/dev/null
fi

bin="${TOPICMF_TOOLS_BIN:-$HOME/.local/share/topicmf/bin}"
mkdir -p "$bin"
(cd tools/gonb && GOBIN="$bin" GOFLAGS=-mod=mod go install github.com/janpfeifer/gonb golang.org/x/tools/cmd/goimports)
export PATH="$bin:$PATH"
# gopls only powers editor completion inside Jupyter; headless runs do not need it.
gonb --install --force_deps --logtostderr >/dev/null 2>&1 || gonb --install --force_deps --logtostderr

spec=$(jupyter kernelspec list --json 2>/dev/null |
	/usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["kernelspecs"]["gonb"]["resource_dir"])')
/usr/bin/python3 - "$spec/kernel.json" "$root" "$bin" <<'PY'
import json, sys
path, root, bin = sys.argv[1:]
spec = json.load(open(path))
# jupyter_client substitutes ${PATH} from the server's environment.
spec.setdefault("env", {}).update({"TOPICMF_CHECKOUT": root, "PATH": bin + ":${PATH}"})
with open(path, "w") as f:
    json.dump(spec, f, indent=1)
PY
echo "Jupyter $(jupyter notebook --version 2>/dev/null) and the gonb kernel (tools in $bin) for $root"
