#!/usr/bin/env bash
# The removal figures of docs/PERFORMANCE.md (issue 51), release build: `smashtag-bench remove` counts POSTS generated
# posts under one term in pages of 100 (as searches and tracking count them: the baseline, measured in the same run),
# then removes them all, 2,000 in a transaction (as `forget` and retention remove them), with another term's
# popularity table read every 10 ms meanwhile; on SQLite, then on a throwaway PostgreSQL cluster.
# Usage: Benchmarks/removal/run.sh [POSTS]   (default 100000)
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --scratch-path .build-release --product smashtag-bench > /dev/null
BENCH=$PWD/.build-release/release/smashtag-bench
POSTS=${1:-100000}
DATA=$(mktemp -d)
CLUSTER=$(mktemp -d)
cleanup() {
    scripts/postgres-cluster stop "$CLUSTER" > /dev/null 2>&1 || true
    rm -rf "$DATA" "$CLUSTER"
}
trap cleanup EXIT
echo "SQLite:"
"$BENCH" remove --posts "$POSTS" --data-dir "$DATA/sqlite" | grep -v '^removing$'
scripts/postgres-cluster start "$CLUSTER" 55497 > /dev/null
psql -X -q "postgresql://postgres@127.0.0.1:55497/postgres" -c "CREATE DATABASE bench"
echo "PostgreSQL:"
"$BENCH" remove --posts "$POSTS" --data-dir "$DATA/postgres" --database "postgresql://postgres@127.0.0.1:55497/bench" \
    | grep -v '^removing$'
