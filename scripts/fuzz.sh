#!/usr/bin/env bash
# Runs every native Go fuzz target of the module for SECONDS each (default
# 60) and stops at the first crash. Targets are found by grepping the test
# files for "func FuzzXxx(", so a new target is fuzzed without editing this
# script. A crashing input is written by go test to the package's
# testdata/fuzz/FuzzXxx/ directory: commit it as a regression seed once the
# bug is fixed.
#
#   scripts/fuzz.sh [SECONDS]         all targets
#   FUZZ_ONLY=regex scripts/fuzz.sh   only targets whose name matches
#   FUZZ_PARALLEL=N                   fuzzing workers per target (default 2)
set -euo pipefail
cd "$(dirname "$0")/.."

secs="${1:-60}"
case "$secs" in '' | *[!0-9]*) echo "usage: scripts/fuzz.sh [SECONDS]" >&2; exit 2 ;; esac
parallel="${FUZZ_PARALLEL:-2}"
# Minimizing each new interesting input may take 60 s by default, during
# which nothing else is fuzzed; give it a tenth of the target's time.
minimize=$((secs / 10 > 0 ? secs / 10 : 1))
only="${FUZZ_ONLY:-.}"

# "dir name" pairs, sorted, from every tracked or new test file.
targets=$(git ls-files --cached --others --exclude-standard '*_test.go' |
	xargs grep -H -o '^func Fuzz[A-Za-z0-9_]*(' |
	sed -E 's|^(.*)/[^/]*_test\.go:func (Fuzz[A-Za-z0-9_]*)\($|\1 \2|; s|^[^ /]*_test\.go:func (Fuzz[A-Za-z0-9_]*)\($|. \1|' |
	grep -E " .*(${only})" | sort)
if [ -z "$targets" ]; then
	echo "no fuzz targets found" >&2
	exit 1
fi
n=$(wc -l <<<"$targets")
echo "== fuzzing $n targets, ${secs}s each, $parallel workers"
start=$SECONDS
i=0
while read -r dir name; do
	i=$((i + 1))
	echo "-- [$i/$n] $dir $name"
	if ! go test -run '^$' -fuzz "^${name}\$" -fuzztime "${secs}s" -fuzzminimizetime "${minimize}s" -parallel "$parallel" "./$dir"; then
		echo "FAIL: $dir $name crashed; the input is under $dir/testdata/fuzz/$name/" >&2
		exit 1
	fi
done <<<"$targets"
echo "== $n fuzz targets, no crash, $((SECONDS - start))s"
