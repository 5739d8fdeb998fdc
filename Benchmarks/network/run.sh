#!/usr/bin/env bash
# The co-mention figures of docs/PERFORMANCE.md (issue 36), in one run, release build:
#   1. `smashtag-bench popularity` on SQLite at 10,000,000 (term, post) links: counting with pairs beside the
#      lecture's per-row design (which now writes the pairs too), the popularity table with partners, the network
#      queries (all time, 30 and 7 days; 30, 50 and 100 nodes) and a window's table;
#   2. the same on PostgreSQL, in a throwaway cluster, with `--postgres`;
#   3. the Network page of a term with 3,000 mentions served by `smashtag serve` from the SQLite store of step 1,
#      under `wrk -t1 -c1` (one request at a time: the latency of a page), beside the same term's Popularity page.
# Usage: Benchmarks/network/run.sh [DATA_DIR] [--postgres]   (default /tmp/smashtag-network-bench)
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v wrk > /dev/null || { apt-get update -qq && apt-get install -y -qq wrk > /dev/null; }
swift build -c release --scratch-path .build-release --product smashtag-bench > /dev/null
swift build -c release --scratch-path .build-release --product smashtag > /dev/null
BIN=$PWD/.build-release/release
DATA=${1:-/tmp/smashtag-network-bench}
rm -rf "$DATA" && mkdir -p "$DATA"

echo "== SQLite"
"$BIN/smashtag-bench" popularity --links 10000000 --pages 200 --data-dir "$DATA"

if [ "${2:-}" = "--postgres" ]; then
    echo "== PostgreSQL"
    CLUSTER=$(mktemp -d)
    scripts/postgres-cluster start "$CLUSTER" 55499 > /dev/null
    psql -X -q "postgresql://postgres@127.0.0.1:55499/postgres" -c "CREATE DATABASE bench"
    "$BIN/smashtag-bench" popularity --links 10000000 --pages 200 --data-dir "$DATA" \
        --database "postgresql://postgres@127.0.0.1:55499/bench"
    scripts/postgres-cluster stop "$CLUSTER" > /dev/null
    rm -rf "$CLUSTER"
fi

echo "== Pages (SQLite, 10,000,000 links; the filler term has 3,000 mentions)"
for suffix in "" -wal -shm; do
    if [ -f "$DATA/bench-popularity.sqlite$suffix" ]; then mv "$DATA/bench-popularity.sqlite$suffix" "$DATA/smashtag.sqlite$suffix"; fi
done
PORT=18081
BASE="http://127.0.0.1:$PORT"
"$BIN/smashtag" serve --port $PORT --data-dir "$DATA" --log-level warning > /dev/null &
SERVER=$!
trap 'kill $SERVER' EXIT
until curl -sf "$BASE/api/recents" > /dev/null; do sleep 0.5; done
page() {  # a name and a path: requests/s, p50 and p99 (ms) of one request at a time for 10 s
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$BASE$2")" = 200 ] || { echo "$2 does not answer 200" >&2; exit 1; }
    wrk -t1 -c1 -d10s --latency "$BASE$2" | awk -v name="$1" -v bytes="$(curl -s "$BASE$2" | wc -c)" '
        function ms(p) { m = 1; if (p ~ /us$/) m = 0.001; else if (p ~ /ms$/) m = 1; else if (p ~ /s$/) m = 1000; sub(/[a-z]+$/, "", p); return p * m }
        /Requests\/sec/ {r = $2} / 50%/ {p50 = ms($2)} / 99%/ {p99 = ms($2)}
        END {printf "page “%s” requestsPerSecond=%s p50ms=%.2f p99ms=%.2f bytes=%d\n", name, r, p50, p99, bytes}'
}
page "Network, 30 mentions (the page's default)" "/recents/popularity/network?term=filler%2050"
page "Network, 100 mentions" "/recents/popularity/network?term=filler%2050&top=100"
page "Network, 50 mentions, 30 days" "/recents/popularity/network?term=filler%2050&top=50&window=30d"
page "Popularity, 3,000 rows (baseline)" "/recents/popularity?term=filler%2050"
