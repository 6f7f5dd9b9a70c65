#!/usr/bin/env bash
# Regenerates every registered paper artifact (tables, figures, REPORT.md per
# paper) into results/. Finished runs are cached in results/runs/, so an
# interrupted reproduction resumes where it stopped.
#
#   ./run_all.sh            full reproduction (75 minutes on 2 cores, measured on 2026-12-07)
#   ./run_all.sh --quick    reduced grids, minutes; reports go to results/quick/
#
# Data: TOPICMF_DATA must name the data directory (see README); experiments
# on the synthetic corpora need none.
set -euo pipefail
cd "$(dirname "$0")"
if [ -z "${TOPICMF_DATA:-}" ] && [ -d ../shared/datasets ]; then
	export TOPICMF_DATA="$(cd ../shared/datasets && pwd)"
fi
mkdir -p bin
# -buildvcs=false: the binary is built from this tree just before it runs, so
# the results store reads the revision and the dirty state from git, which
# leaves results/ and Markdown out. A stamped binary (-buildvcs=true) would
# count the reports already rewritten by an interrupted run as uncommitted
# changes: on resuming, every run id would change (nothing reused) and run
# would refuse to render the committed reports.
go build -buildvcs=false -o bin/topicmf ./cmd/topicmf
bin/topicmf list
bin/topicmf run '*/*' "$@"
