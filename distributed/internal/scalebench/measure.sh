#!/bin/sh
# measure.sh N [ITERS]: the four runs of one corpus size of the scaling
# study in distributed/RESULTS.md. For GOMAXPROCS 1 then 2 it runs the
# in-memory engine/rlsi and Distributed RLSI on prism back to back (so that
# the load of the shared machine hits both alike), each at nice 5 under
# /usr/bin/time (wall seconds, peak resident KB, user and system CPU
# seconds), and prints the load average before and after every run.
# SCALEBENCH is the binary (go build -o /tmp/scalebench
# ./internal/scalebench); MODES (default "memory prism") selects the runs.
set -eu
bin=${SCALEBENCH:-/tmp/scalebench}
n=$1
iters=${2:-2}
for p in 1 2; do
	for mode in ${MODES:-memory prism}; do
		echo "loadavg before: $(cat /proc/loadavg)"
		GOMAXPROCS=$p nice -n 5 /usr/bin/time -f "time: %e s wall, %M KB peak RSS, %U s user, %S s sys" \
			"$bin" -mode "$mode" -n "$n" -m 20000 -k 20 -iters "$iters"
		echo "loadavg after: $(cat /proc/loadavg)"
	done
done
