#!/usr/bin/env bash
# The PostgreSQL figures of docs/PERFORMANCE.md (issue 18), in one run on a throwaway cluster:
#   1. counting on PostgreSQL beside the lecture's per-row design on the same database, and the popularity query's
#      latency at 10,000,000 (term, post) links (`smashtag-bench popularity --database`);
#   2. two servers on one database under 32 connections spread over them (wrk, a different query on most requests,
#      so most requests write), with no error allowed, while a probe times how long a change counted through one
#      server takes to reach the other server's live Popularity page.
# Usage: Benchmarks/postgres/run.sh [SECONDS] [LINKS]
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v wrk > /dev/null || { apt-get update -qq && apt-get install -y -qq wrk > /dev/null; }
for product in smashtag smashtag-bench; do swift build -c release --scratch-path .build-release --product "$product" > /dev/null; done
BIN=$PWD/.build-release/release/smashtag
BENCH=$PWD/.build-release/release/smashtag-bench
SECONDS_EACH=${1:-30}
LINKS=${2:-10000000}
WORK=$(mktemp -d /tmp/smashtag-pg-bench.XXXXXX)
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
CLUSTER=$(mktemp -d /tmp/smashtag-pg-cluster.XXXXXX)  # a directory of its own: the cluster's owner must reach it
URL=$(scripts/postgres-cluster start "$CLUSTER" "$PORT")
SERVERS=()
trap 'kill "${SERVERS[@]}" 2> /dev/null; scripts/postgres-cluster stop "$CLUSTER"; rm -rf "$WORK"' EXIT
database() { psql -q "$URL" -c "CREATE DATABASE $1"; echo "${URL%/postgres}/$1"; }

echo "## $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), PostgreSQL $(psql -At "$URL" -c 'SHOW server_version'), $(date -u +%F)"
echo "### Counting and the popularity query at $LINKS links"
"$BENCH" popularity --links "$LINKS" --data-dir "$WORK" --database "$(database bench_popularity)"

echo "### Two servers, one database, ${SECONDS_EACH}s"
SHARED=$(database bench_servers)
"$BIN" corpus generate --tweets 200000 --data-dir "$WORK/data" > /dev/null
for port in 18091 18092; do
    SMASHTAG_DATABASE_URL=$SHARED "$BIN" serve --port $port --data-dir "$WORK/data" --log-level warning > /dev/null 2>> "$WORK/servers.log" &
    SERVERS+=($!)
done
for port in 18091 18092; do until curl -sf "http://127.0.0.1:$port/api/recents" > /dev/null; do sleep 0.5; done; done
python3 Benchmarks/postgres/load.py "$WORK/data/corpus.sqlite" http://127.0.0.1:18091/ http://127.0.0.1:18092/ "$SECONDS_EACH"
if grep -q "error" "$WORK/servers.log"; then echo "the servers logged errors:"; grep "error" "$WORK/servers.log" | head; exit 1; fi
