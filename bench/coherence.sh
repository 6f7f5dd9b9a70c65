#!/usr/bin/env bash
# Side-by-side coherence benchmark: topicmf's metrics/coherence against
# gensim's CoherenceModel on the same token streams and topics, in the same
# run (issue 26, item 3).
#
#   bench/coherence.sh [--data NAME] [--k K] [--repeat R] [--gensim-repeat G] [--label TEXT] [--out FILE]
#
#   --data NAME   registered collection (default 20newsgroups)
#   --k K         topics (default 100; NMF, 30 iterations, top 10 words)
#   --repeat R    timed repeats of topicmf per measure, fastest reported (default 3)
#   --gensim-repeat G  the same for gensim (default 1: on a loaded machine one
#                 gensim pass of a measure takes minutes)
#   --label TEXT  a line stating the conditions, e.g. "measured under load"
#   --out FILE    report (default bench/COHERENCE.md)
#
# Needs TOPICMF_DATA, Go, and python3-gensim for /usr/bin/python3. Steps:
# build bench/cmd/coherencebench; `coherencebench prepare` reads the
# collection through the default text pipeline, fits NMF and writes the
# reference token streams and the topics to a temporary directory; then for
# each measure (NPMI, C_V, UMass, UCI) topicmf and gensim score the same
# files, one process each, back to back (so a shared machine's load hits
# both alike), each reporting its fastest repeat and its peak RSS. The
# report gives the times, the ratio topicmf/gensim, the peak memory, and the
# mean coherence of both (which agree: the same definitions).
set -euo pipefail
cd "$(dirname "$0")/.."
# shellcheck source=scripts/outfile.sh
. scripts/outfile.sh

data=20newsgroups k=100 repeat=3 grepeat=1 label="" out=bench/COHERENCE.md
while [ $# -gt 0 ]; do
	case "$1" in
	--data) data="$2"; shift 2 ;;
	--k) k="$2"; shift 2 ;;
	--repeat) repeat="$2"; shift 2 ;;
	--gensim-repeat) grepeat="$2"; shift 2 ;;
	--label) label="$2"; shift 2 ;;
	--out) out="$2"; shift 2 ;;
	*) echo "bench/coherence.sh: unknown argument $1" >&2; exit 2 ;;
	esac
done
: "${TOPICMF_DATA:?set TOPICMF_DATA to the data directory}"
/usr/bin/python3 -c 'import gensim' || { echo "bench/coherence.sh: python3-gensim is not installed for /usr/bin/python3" >&2; exit 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
go build -o "$work/coherencebench" ./bench/cmd/coherencebench
echo "== prepare: $data, NMF K=$k" >&2
"$work/coherencebench" prepare -dir "$work/data" -data "$data" -k "$k"
: >"$work/results.jsonl"
for m in npmi cv umass uci; do
	echo "== $m" >&2
	"$work/coherencebench" score -dir "$work/data" -measure "$m" -repeat "$repeat" >>"$work/results.jsonl"
	/usr/bin/python3 bench/coherence_gensim.py "$work/data" "$m" "$grepeat" >>"$work/results.jsonl"
done

/usr/bin/python3 - "$work" "$data" "$k" "$repeat" "$grepeat" "$label" "$work/COHERENCE.md" <<'PY'
import json, os, sys, datetime
work, data, k, repeat, grepeat, label, out = sys.argv[1:]
rows = [json.loads(l) for l in open(os.path.join(work, "results.jsonl"))]
by = {(r["tool"], r["measure"]): r for r in rows}
texts = open(os.path.join(work, "data", "texts.txt")).read().split("\n")
docs = sum(1 for t in texts if t)
tokens = sum(len(t.split()) for t in texts)
import gensim
gomax = os.environ.get("GOMAXPROCS") or str(os.cpu_count())
names = {"npmi": "NPMI (window 10)", "cv": "C_V (window 110)", "umass": "UMass (documents)", "uci": "UCI (window 10)"}
lines = ["# Topic coherence: topicmf against gensim", ""]
if label:
    lines += [f"**{label}.**", ""]
lines += [
    f"Written by `bench/coherence.sh` on {datetime.date.today()} (load average {os.getloadavg()[0]:.1f} at the end; "
    f"{os.cpu_count()} CPUs, topicmf's pool GOMAXPROCS={gomax}, gensim {gensim.__version__} with processes=1).",
    "",
    f"Reference corpus: {data} through the default text pipeline, {docs} documents, {tokens} vocabulary tokens in text order; "
    f"K = {k} NMF topics, top 10 words. Each cell is the fastest of {repeat} repeats (topicmf) or {grepeat} (gensim), in its own process; "
    "peak memory is the process's peak resident set (getrusage), reading the texts included on both sides. "
    "Time covers the scoring only: gensim's CoherenceModel construction and get_coherence_per_topic "
    "(its Dictionary built before), topicmf's coherence.Score (word ids assigned before).",
    "",
    "| measure | topicmf s | gensim s | time ratio | topicmf MB | gensim MB | memory ratio | mean (topicmf) | mean (gensim) |",
    "|---|---|---|---|---|---|---|---|---|",
]
for m in ["npmi", "cv", "umass", "uci"]:
    a, b = by[("topicmf", m)], by[("gensim", m)]
    lines.append(f"| {names[m]} | {a['seconds']:.3f} | {b['seconds']:.2f} | 1/{b['seconds']/a['seconds']:.0f} | "
                 f"{a['peak_rss_mb']:.0f} | {b['peak_rss_mb']:.0f} | {a['peak_rss_mb']/b['peak_rss_mb']:.2f} | "
                 f"{a['mean']:.12f} | {b['mean']:.12f} |")
lines += ["", "The goal (issue 26): at most 1/5 of gensim's time per measure and at most its peak memory.", ""]
open(out, "w").write("\n".join(lines))
print("\n".join(lines))
PY
# Into --out by the rules of scripts/outfile.sh: a linked report stays a
# link, a FIFO is written, a directory refused, a file replaced atomically.
write_over "$work/COHERENCE.md" "$out"
