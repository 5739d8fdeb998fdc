#!/usr/bin/env bash
# The conversation figures of docs/PERFORMANCE.md (issue 52), in one run, release build, on SQLite and then on a
# throwaway PostgreSQL cluster:
#   1. `smashtag-bench conversations`: a term holding 10,000,000 replies among 100,000 people over a year (who answers
#      whom skewed, as conversations are), then who-replies-to-whom networks of it, 300 runs each: all time at 30, 50
#      and 100 people, and the last 30 and 7 days at 50;
#   2. `smashtag-bench popularity` at 10,000,000 (term, post) links: counting pages of generated posts (a quarter of
#      them replies and reposts, so interactions are counted too) beside the lecture's per-row design, and the
#      co-mention network beside them as the baseline of the same run.
# Usage: Benchmarks/conversations/run.sh [INTERACTIONS]   (default 10000000)
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --scratch-path .build-release --product smashtag-bench > /dev/null
BIN=$PWD/.build-release/release/smashtag-bench
INTERACTIONS=${1:-10000000}
DATA=$(mktemp -d)
CLUSTER=$(mktemp -d)
cleanup() {
    scripts/postgres-cluster stop "$CLUSTER" > /dev/null 2>&1 || true
    rm -rf "$DATA" "$CLUSTER"
}
trap cleanup EXIT
scripts/postgres-cluster start "$CLUSTER" 55498 > /dev/null
PG=postgresql://postgres@127.0.0.1:55498
psql -X -q "$PG/postgres" -c "CREATE DATABASE conversations" -c "CREATE DATABASE popularity"

echo "== SQLite"
"$BIN" conversations --interactions "$INTERACTIONS" --data-dir "$DATA"
"$BIN" popularity --links 10000000 --pages 200 --data-dir "$DATA" | grep -E "^(fill|counting|network)"
echo "== PostgreSQL"
"$BIN" conversations --interactions "$INTERACTIONS" --data-dir "$DATA" --database "$PG/conversations"
"$BIN" popularity --links 10000000 --pages 200 --data-dir "$DATA" --database "$PG/popularity" \
    | grep -E "^(fill|counting|network)"
