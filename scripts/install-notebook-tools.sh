#!/usr/bin/env bash
# Installs what the notebooks need on a fresh Debian machine: Jupyter's
# headless executor from Debian's packages, and the gonb Go kernel with
# goimports built at the versions pinned in tools/gonb/go.mod. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v jupyter-nbconvert >/dev/null 2>&1 || ! /usr/bin/python3 -c 'import nbclient' 2>/dev/null; then
	export DEBIAN_FRONTEND=noninteractive
	apt-get update -qq
	apt-get install -y -qq jupyter-nbconvert jupyter-client python3-nbclient python3-ipykernel >/dev/null
fi

bin="${TOPICMF_TOOLS_BIN:-$HOME/.local/share/topicmf/bin}"
mkdir -p "$bin"
(cd tools/gonb && GOBIN="$bin" GOFLAGS=-mod=mod go install github.com/janpfeifer/gonb golang.org/x/tools/cmd/goimports)
export PATH="$bin:$PATH"
# gopls only powers editor completion inside Jupyter; headless runs do not need it.
gonb --install --force_deps --logtostderr >/dev/null 2>&1 || gonb --install --force_deps --logtostderr
jupyter kernelspec list | grep -q gonb
echo "gonb kernel installed from $bin"
