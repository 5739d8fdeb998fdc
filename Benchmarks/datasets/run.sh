#!/usr/bin/env bash
# The dataset figures of docs/PERFORMANCE.md (issue 37), release build:
#   1. `smashtag-bench export-fill` counts 1,000,000 generated posts under one term through the store's own counting;
#   2. the floor: the same posts' stored JSON read out by the database's own client (sqlite3, psql's \copy) to
#      /dev/null — no decoding, no writing — measured in the same run;
#   3. `smashtag export` of the term as NDJSON, as CSV tables, pseudonymised, and as a zip: posts/s and the
#      process's peak resident memory (GNU time's %M);
#   4. the Popularity page's downloads, served by `smashtag serve`: the time to the NDJSON's first byte, 20 times, and
#      the zip's first byte and end.
# Usage: Benchmarks/datasets/run.sh [DATA_DIR] [--postgres]   (default /tmp/smashtag-datasets-bench)
# BASELINE=/path/to/an/earlier/smashtag measures its NDJSON and CSV exports too, in the same run, on the same data.
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --scratch-path .build-release --product smashtag-bench > /dev/null
swift build -c release --scratch-path .build-release --product smashtag > /dev/null
BIN=$PWD/.build-release/release
DATA=${1:-/tmp/smashtag-datasets-bench}
POSTS=${POSTS:-1000000}
TERM_NAME="export bench"
rm -rf "$DATA" && mkdir -p "$DATA"
STORE=()
CLUSTER=
if [ "${2:-}" = "--postgres" ]; then
    CLUSTER=$(mktemp -d)
    scripts/postgres-cluster start "$CLUSTER" 55498 > /dev/null
    psql -X -q "postgresql://postgres@127.0.0.1:55498/postgres" -c "CREATE DATABASE bench"
    STORE=(--database "postgresql://postgres@127.0.0.1:55498/bench")
fi
cleanup() {
    if [ -n "${SERVER:-}" ]; then kill "$SERVER" 2> /dev/null || true; fi
    if [ -n "$CLUSTER" ]; then scripts/postgres-cluster stop "$CLUSTER" > /dev/null; rm -rf "$CLUSTER"; fi
}
trap cleanup EXIT

echo "== Fill: $POSTS posts counted under “$TERM_NAME” (${STORE[*]:-SQLite})"
"$BIN/smashtag-bench" export-fill --posts "$POSTS" --data-dir "$DATA" "${STORE[@]}"

rate() {  # a name, then the command: seconds, posts/s, peak resident memory
    local name=$1
    shift
    /usr/bin/time -f "%e %M" -o "$DATA/time" "$@" > /dev/null 2> "$DATA/stderr" || { cat "$DATA/stderr"; exit 1; }
    read -r seconds kilobytes < "$DATA/time"
    awk -v name="$name" -v s="$seconds" -v kb="$kilobytes" -v n="$POSTS" \
        'BEGIN {printf "%s: %.2f s, %d posts/s, peak RSS %.1f MB\n", name, s, n / s, kb / 1024}'
}

echo "== Floor: the stored JSON read by the database's own client"
if [ -n "$CLUSTER" ]; then
    rate "psql \\copy of the posts' JSON" psql -X -q "postgresql://postgres@127.0.0.1:55498/bench" \
        -c "\\copy (SELECT p.json FROM counted_post c JOIN post p ON p.id = c.post_ref ORDER BY c.post_ref) TO '/dev/null'"
else
    rate "sqlite3 SELECT of the posts' JSON" sqlite3 "$DATA/smashtag.sqlite" \
        "SELECT p.json FROM countedPost c JOIN post p ON p.id = c.postRef ORDER BY c.postRef"
fi

echo "== smashtag export"
EXPORT=("$BIN/smashtag" export "$TERM_NAME" --data-dir "$DATA" "${STORE[@]}" --force)
rate "NDJSON to a file" "${EXPORT[@]}" --output "$DATA/posts.ndjson"
ls -l "$DATA/posts.ndjson" | awk '{printf "  %.0f MB\n", $5 / 1048576}'
rate "NDJSON to stdout" "${EXPORT[@]}"
rate "NDJSON, pseudonymised" "${EXPORT[@]}" --output "$DATA/pseudonymised.ndjson" --pseudonymise
rate "CSV tables in a folder" "${EXPORT[@]}" --format csv --output "$DATA/tables"
rate "CSV tables in a zip" "${EXPORT[@]}" --format csv --output "$DATA/tables.zip"
if [ -n "${BASELINE:-}" ]; then
    echo "== The baseline's export ($BASELINE)"
    EARLIER=("$BASELINE" export "$TERM_NAME" --data-dir "$DATA" "${STORE[@]}" --force)
    rate "baseline: NDJSON to a file" "${EARLIER[@]}" --output "$DATA/posts.ndjson"
    rate "baseline: CSV tables in a folder" "${EARLIER[@]}" --format csv --output "$DATA/tables"
    rate "baseline: CSV tables in a zip" "${EARLIER[@]}" --format csv --output "$DATA/tables.zip"
fi

echo "== The download's first byte (smashtag serve, 20 times)"
PORT=18083
"$BIN/smashtag" serve --port $PORT --data-dir "$DATA" "${STORE[@]}" --log-level warning > /dev/null &
SERVER=$!
until curl -sf "http://127.0.0.1:$PORT/api/recents" > /dev/null; do sleep 0.5; done
python3 - "$PORT" "$TERM_NAME" << 'PY'
import sys, time, urllib.parse, urllib.request
port, term = sys.argv[1], sys.argv[2]
for name, query in [("NDJSON", ""), ("NDJSON, pseudonymised", "&pseudonymise=1")]:
    times = []
    for _ in range(20):
        started = time.perf_counter()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/popularity/posts?term={urllib.parse.quote(term)}{query}") as response:
            response.read(1)
            times.append((time.perf_counter() - started) * 1000)
    times.sort()
    print(f"first byte of the {name} download: p50 {times[9]:.1f} ms, p99 (max of 20) {times[-1]:.1f} ms")
started = time.perf_counter()
with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/popularity/posts?term={urllib.parse.quote(term)}&format=csv") as response:
    response.read(1)
    first = time.perf_counter() - started
    size = 1 + len(response.read())
    whole = time.perf_counter() - started
print(f"the CSV zip download: first byte after {first * 1000:.0f} ms (the term's tables, while the posts' are made), "
      f"whole after {whole:.1f} s, {size / 1048576:.0f} MB")
PY
