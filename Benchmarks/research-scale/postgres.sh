#!/usr/bin/env bash
# PostgreSQL at SQLite's pace (docs/PERFORMANCE.md, "Research scale (issue 39)", part 4), in one run on a throwaway
# PostgreSQL cluster on this machine:
#   1. searches that each add a new term: `smashtag-bench terms` (32 at once over 300 varied queries on a
#      200,000-post demo corpus, so every search adds a term, counts its page and pushes the oldest out) into
#      SQLite's store and into PostgreSQL's, taking turns ROUNDS times; searches/s, each store's CPU per search
#      (the benchmark process, and PostgreSQL's server processes), and PostgreSQL's share of SQLite's rate;
#   2. the popularity table of a term with 3,000 mentions counted more than once at 10,000,000 (term, post) links
#      (`smashtag-bench popularity --database`), p50 and p99, beside the read of the release before issue 39 on copies
#      of the same rows in that release's shape, the two reads taking turns.
# Usage: Benchmarks/research-scale/postgres.sh [SECONDS] [ROUNDS] [LINKS]   (default 10 s, 3 rounds, 10,000,000)
set -euo pipefail
cd "$(dirname "$0")/../.."
for product in smashtag smashtag-bench; do
    swift build -c release --scratch-path .build-release --product "$product" > /dev/null
done
BIN=$PWD/.build-release/release/smashtag
BENCH=$PWD/.build-release/release/smashtag-bench
SECONDS_EACH=${1:-10}
ROUNDS=${2:-3}
LINKS=${3:-10000000}
WORK=$(mktemp -d /tmp/smashtag-pg-pace.XXXXXX)
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
CLUSTER=$(mktemp -d /tmp/smashtag-pg-cluster.XXXXXX)  # a directory of its own: the cluster's owner must reach it
URL=$(scripts/postgres-cluster start "$CLUSTER" "$PORT")
trap 'scripts/postgres-cluster stop "$CLUSTER"; rm -rf "$WORK"' EXIT
database() { psql -q "$URL" -c "CREATE DATABASE $1"; echo "${URL%/postgres}/$1"; }
# CPU seconds of the server processes that have ended (the postmaster's reaped children): the benchmark's connections.
server_cpu() { awk '{ print ($16 + $17) / 100 }' "/proc/$(head -1 "$CLUSTER/data/postmaster.pid")/stat"; }

echo "## $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), SQLite $(python3 -c 'import sqlite3; print(sqlite3.sqlite_version)'), PostgreSQL $(psql -At "$URL" -c 'SHOW server_version'), $(date -u +%F)"

"$BIN" corpus generate --tweets 200000 --data-dir "$WORK/data" > /dev/null
# The 150 most used hashtags of the corpus, and the two query shapes of the web benchmark over neighbouring pairs.
python3 Benchmarks/corpus_terms.py "$WORK/data/corpus.sqlite" --pair-queries 150 > "$WORK/queries.txt"

# One store's run: searches/s, and CPU milliseconds per search of the benchmark process and of PostgreSQL's.
terms() {
    local before after
    before=$(server_cpu)
    /usr/bin/time -f "%U %S" -o "$WORK/time" "$BENCH" terms "$WORK/queries.txt" --data-dir "$WORK/data" \
        --seconds "$SECONDS_EACH" "$@" > "$WORK/terms.json"
    sleep 1  # the connections' processes end and are counted
    after=$(server_cpu)
    python3 - "$WORK/terms.json" "$WORK/time" "$before" "$after" <<'EOF'
import json, sys
result = json.load(open(sys.argv[1]))
user, system = map(float, open(sys.argv[2]).read().split()[-2:])
searches = result["searches"] + result["queries"]  # the pass that fills Recents runs in the same process
server = float(sys.argv[4]) - float(sys.argv[3])
print(f'{result["searchesPerSecond"]:.0f} {1000 * (user + system) / searches:.2f} {1000 * server / searches:.2f}')
EOF
}

echo "### Searches that each add a new term (${SECONDS_EACH}s each, 32 at once, pages of 25)"
echo "| round | SQLite searches/s | CPU ms a search | PostgreSQL searches/s | CPU ms a search (process + server) | PostgreSQL / SQLite |"
echo "|---|---:|---:|---:|---:|---:|"
ratios=()
for round in $(seq "$ROUNDS"); do
    read -r sqlite sqlite_cpu _ <<< "$(terms)"
    read -r pg pg_cpu pg_server <<< "$(terms --database "$(database "terms_$round")")"
    ratio=$(echo "$pg / $sqlite" | bc -l)
    ratios+=("$ratio")
    printf "| %s | %s | %s | %s | %s + %s | **%.2f** |\n" "$round" "$sqlite" "$sqlite_cpu" "$pg" "$pg_cpu" "$pg_server" "$ratio"
done
printf "| mean of the ratios | | | | | **%.2f** (target ≥ 0.50) |\n" \
    "$(printf '%s\n' "${ratios[@]}" | awk '{ s += $1 } END { print s / NR }')"

echo "### The popularity table of a term with 3,000 mentions at $LINKS links"
"$BENCH" popularity --links "$LINKS" --data-dir "$WORK" --database "$(database bench_popularity)"
