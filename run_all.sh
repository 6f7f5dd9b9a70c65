#!/usr/bin/env bash
# Regenerates every registered paper artifact (tables, figures, REPORT.md per
# paper) into results/. Finished runs are cached in results/runs/, so an
# interrupted reproduction resumes where it stopped.
#
#   ./run_all.sh            full reproduction (hours on 2 cores)
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
# -buildvcs=true so every run's provenance records the exact revision.
go build -buildvcs=true -o bin/topicmf ./cmd/topicmf
bin/topicmf list
bin/topicmf run '*/*' "$@"
