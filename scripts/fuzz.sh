#!/usr/bin/env bash
# Runs every native Go fuzz target of the module for SECONDS each (default
# 60) and stops at the first crash. Targets are found by grepping the test
# files for "func FuzzXxx(", so a new target is fuzzed without editing this
# script. A crashing input is written by go test to the package's
# testdata/fuzz/FuzzXxx/ directory: commit it as a regression seed once the
# bug is fixed. A target in a nested module (distributed/, its own go.mod)
# is run from that module's root.
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
	{ grep -E " .*(${only})" || true; } | sort)
if [ -z "$targets" ]; then
	echo "no fuzz targets found" >&2
	exit 1
fi
n=$(wc -l <<<"$targets")
echo "== fuzzing $n targets, ${secs}s each, $parallel workers"
start=$SECONDS
i=0
log=$(mktemp)
trap 'rm -f "$log"' EXIT

# modroot DIR is the root of the module holding the package in DIR (a
# relative path): the nearest directory upwards with a go.mod.
modroot() {
	local d=$1
	while [ "$d" != . ] && [ ! -f "$d/go.mod" ]; do
		d=$(dirname "$d")
	done
	echo "$d"
}

# fuzz DIR NAME BUDGET fuzzes one target for BUDGET (a -fuzztime: "10s" or
# "5000x"), from the root of the package's module, and classifies the
# outcome: 0 no crash, 1 a crash (go test wrote a reproducer, or the
# target failed with anything but the race below), 2 the coordinator's
# end-of-time race, 3 the target did not run (the package failed to
# build, or go test failed before any "--- FAIL" of the target). Go 1.26's
# fuzz coordinator can report "context deadline exceeded" as a failure
# when -fuzztime runs out while a worker is mid-call (golang/go#75804,
# fixed in Go 1.27); it writes no reproducer and the target's only output
# after the FAIL line is that message.
fuzz() {
	local dir=$1 name=$2 budget=$3 corpus="$1/testdata/fuzz/$2" before after mod pkg
	mod=$(modroot "$dir")
	pkg=./$dir
	[ "$mod" = . ] || pkg=.${dir#"$mod"} # distributed/shards → ./shards
	before=$(ls "$corpus" 2>/dev/null | sort || true)
	if (cd "$mod" && go test -run '^$' -fuzz "^${name}\$" -fuzztime "$budget" -fuzzminimizetime "${minimize}s" \
		-parallel "$parallel" "$pkg") 2>&1 | tee "$log"; then
		return 0
	fi
	after=$(ls "$corpus" 2>/dev/null | sort || true)
	if [ "$before" = "$after" ] && ! grep -q "^--- FAIL: ${name} " "$log"; then
		return 3
	fi
	if [ "$before" = "$after" ] &&
		[ "$(sed -n "/^--- FAIL: ${name} /,/^FAIL\$/p" "$log" | sed '1d;$d' | tr -d ' \t')" = "contextdeadlineexceeded" ]; then
		return 2
	fi
	return 1
}

i=0
retried=0
while read -r dir name; do
	i=$((i + 1))
	echo "-- [$i/$n] $dir $name"
	status=0
	fuzz "$dir" "$name" "${secs}s" || status=$?
	if [ "$status" = 2 ]; then
		# The race, not a crash: run the target once more, for as many
		# executions as the first run reached. A count-based -fuzztime sets
		# no deadline, so the race cannot recur; anything else still fails.
		retried=$((retried + 1))
		execs=$(grep -o 'execs: [0-9]*' "$log" | tail -n 1 | grep -o '[0-9]*' || true)
		budget="${secs}s"
		[ -n "$execs" ] && [ "$execs" -gt 0 ] && budget="${execs}x"
		echo "-- [$i/$n] $dir $name: \"context deadline exceeded\" with no reproducer (golang/go#75804); running it again for $budget"
		status=0
		fuzz "$dir" "$name" "$budget" || status=$?
	fi
	case "$status" in
	0) ;;
	2)
		echo "FAIL: $dir $name: \"context deadline exceeded\" twice in a row; rerun with FUZZ_ONLY=$name" >&2
		exit 1
		;;
	3)
		echo "FAIL: $dir $name did not run: go test failed before fuzzing it (build or setup failure, output above)" >&2
		exit 1
		;;
	*)
		echo "FAIL: $dir $name crashed; the input is under $dir/testdata/fuzz/$name/" >&2
		exit 1
		;;
	esac
done <<<"$targets"
echo "== $n fuzz targets, no crash, $retried rerun after the coordinator's deadline race, $((SECONDS - start))s"
