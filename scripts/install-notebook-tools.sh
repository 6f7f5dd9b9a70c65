#!/usr/bin/env bash
# Installs what the notebooks need, in one step, on a Debian machine:
#   - Jupyter from Debian's packages: the notebook server (`jupyter
#     notebook`) and the headless executor (nbconvert, nbclient);
#   - the Go kernels, into $TOPICMF_TOOLS_BIN (default
#     ~/.local/share/topicmf/bin):
#       gonb, with goimports and gopls (completion), at the versions pinned
#         in tools/gonb/go.mod;
#       gophernotes, built from the module proxy's v0.7.5 source with the
#         gomacro and the two small patches of tools/gophernotes (its
#         README says why);
#   - each kernel's environment: TOPICMF_CHECKOUT (this checkout),
#     TOPICMF_DATA (the data directory) and PATH (with the tools); for
#     gophernotes also GOMACRO_REPLACE, which points the import of
#     github.com/topicmf/topicmf/... at this checkout.
#
#   scripts/install-notebook-tools.sh [--kernel gonb|gophernotes] [--data-dir DIR]
#
# Both kernels by default. The data directory is --data-dir, else
# $TOPICMF_DATA, else the command's default (<user cache>/topicmf/data);
# run the script again to change it. Idempotent; apt-get runs only when a
# package is missing (as root, or through sudo when there is one).
set -euo pipefail
usage() {
	echo "usage: $0 [--kernel gonb|gophernotes] [--data-dir DIR]" >&2
	exit 2
}
kernels=(gonb gophernotes)
data="${TOPICMF_DATA:-${XDG_CACHE_HOME:-$HOME/.cache}/topicmf/data}"
while [ $# -gt 0 ]; do
	case "$1" in
	--kernel | --data-dir) [ $# -ge 2 ] || usage ;;&
	--kernel)
		case "$2" in gonb | gophernotes) kernels=("$2") ;; *) echo "$0: --kernel $2: want gonb or gophernotes" >&2 && exit 2 ;; esac
		shift 2
		;;
	--data-dir)
		data="$2"
		shift 2
		;;
	*) usage ;;
	esac
done
data=$(realpath -m -- "$data")
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

tools="${TOPICMF_TOOLS:-$HOME/.local/share/topicmf}"
bin="${TOPICMF_TOOLS_BIN:-$tools/bin}"
mkdir -p "$bin"
export PATH="$bin:$PATH"

# set_env KERNEL [KEY=VALUE...] records the environment in the kernel's
# kernel.json: TOPICMF_CHECKOUT, TOPICMF_DATA, PATH, and the pairs given.
set_env() {
	local spec
	spec=$(jupyter kernelspec list --json 2>/dev/null |
		/usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["kernelspecs"][sys.argv[1]]["resource_dir"])' "$1")
	shift
	/usr/bin/python3 - "$spec/kernel.json" "TOPICMF_CHECKOUT=$root" "TOPICMF_DATA=$data" \
		"PATH=$bin:\${PATH}" "$@" <<-'PY'
		import json, sys
		path = sys.argv[1]
		spec = json.load(open(path))
		# jupyter_client substitutes ${PATH} from the server's environment.
		spec.setdefault("env", {}).update(kv.split("=", 1) for kv in sys.argv[2:])
		with open(path, "w") as f:
		    json.dump(spec, f, indent=1)
	PY
}

install_gonb() {
	(cd tools/gonb && GOBIN="$bin" GOFLAGS=-mod=mod go install github.com/janpfeifer/gonb \
		golang.org/x/tools/cmd/goimports golang.org/x/tools/gopls)
	gonb --install --force_deps --logtostderr >/dev/null 2>&1 || gonb --install --force_deps --logtostderr
	set_env gonb
}

install_gophernotes() {
	local build gomacro src version
	build=$(mktemp -d)
	# The kernel's source, and the gomacro it is built with (pinned in
	# tools/gophernotes/gophernotes.mod), from the module proxy.
	version=$(go mod edit -json tools/gophernotes/gophernotes.mod |
		/usr/bin/python3 -c 'import json,sys; print([r["Version"] for r in json.load(sys.stdin)["Require"] if r["Path"] == "github.com/cosmos72/gomacro"][0])')
	read -r src gomacro < <(cd "$build" && GOFLAGS= go mod download -json github.com/gopherdata/gophernotes@v0.7.5 \
		"github.com/cosmos72/gomacro@$version" | /usr/bin/python3 -c '
import json, sys
dec, text, dirs = json.JSONDecoder(), sys.stdin.read(), []
while text.strip():
    obj, end = dec.raw_decode(text.strip())
    if "Error" in obj:
        sys.exit(obj["Error"])
    dirs.append(obj["Dir"])
    text = text.strip()[end:]
print(*dirs)')
	cp -r "$src" "$build/gophernotes"
	cp -r "$gomacro" "$build/gomacro"
	chmod -R u+w "$build"
	cp tools/gophernotes/gophernotes.mod "$build/gophernotes/go.mod"
	cp tools/gophernotes/gophernotes.sum "$build/gophernotes/go.sum"
	patch -s -d "$build/gophernotes" -p1 <tools/gophernotes/gophernotes-jsoner.patch
	patch -s -d "$build/gomacro" -p1 <tools/gophernotes/gomacro-replace.patch
	(cd "$build/gophernotes" && go mod edit -replace github.com/cosmos72/gomacro=../gomacro &&
		GOFLAGS=-mod=mod go build -o "$bin/gophernotes" .)
	mkdir -p "$build/spec"
	cp "$build/gophernotes/kernel/logo-32x32.png" "$build/gophernotes/kernel/logo-64x64.png" "$build/spec/"
	/usr/bin/python3 - "$build/spec/kernel.json" "$bin/gophernotes" <<-'PY'
		import json, sys
		json.dump({"argv": [sys.argv[2], "{connection_file}"], "display_name": "Go (gophernotes)",
		           "language": "go"}, open(sys.argv[1], "w"), indent=1)
	PY
	jupyter kernelspec install --user --name gophernotes "$build/spec" >/dev/null
	rm -rf "$build"
	# gomacro resolves an import with `go get PACKAGE`, which asks the proxy
	# about every prefix of the path; a proxy that answers 403 rather than
	# 404 for github.com/topicmf/topicmf/notebook ends the lookup there.
	# Falling through to "off" (after "|", on any error) makes that answer
	# "not found", so the module resolves to the replace.
	local proxy
	proxy=$(go env GOPROXY | tr ',|' '\n\n' | grep -v -x -e direct -e off | paste -sd '|')
	set_env gophernotes "GOMACRO_REPLACE=github.com/topicmf/topicmf=$root" "GOPROXY=${proxy:+$proxy|}off"
}

for k in "${kernels[@]}"; do
	"install_$k"
done
[ -d "$data" ] || echo "note: the data directory $data does not exist yet: topicmf data fetch --data-dir $data" >&2
echo "Jupyter $(jupyter notebook --version 2>/dev/null) and the ${kernels[*]} kernel(s) (tools in $bin) for $root, data in $data"
