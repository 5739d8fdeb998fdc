#!/usr/bin/env bash
# The thread figures of docs/PERFORMANCE.md (issue 52), release build, on SQLite and then on a throwaway PostgreSQL
# cluster: a 3,000-post demo corpus and a conversation of 1,000 replies imported into it (600 answering the root, 300
# answering those, 100 a level deeper), then, one request at a time over one connection, REQUESTS of each page after
# a warm-up: the root's thread (its first page, fifty direct replies with theirs), the thread's next page (`?after=`),
# a reply's thread (its chain above and its own replies) — and, as the baseline from the same run, the Search page of
# the root author's posts and the root's Mentions page (kept by that search).
# Usage: Benchmarks/threads/run.sh [REQUESTS]   (default 2000)
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --scratch-path .build-release --product smashtag > /dev/null
BIN=$PWD/.build-release/release/smashtag
REQUESTS=${1:-2000}
WORK=$(mktemp -d)
CLUSTER=$(mktemp -d)
SERVER=
cleanup() {
    [ -n "$SERVER" ] && kill "$SERVER" 2> /dev/null || true
    scripts/postgres-cluster stop "$CLUSTER" > /dev/null 2>&1 || true
    rm -rf "$WORK" "$CLUSTER"
}
trap cleanup EXIT
python3 - "$WORK/conversation.ndjson" <<'PY'
import json, sys
root = 1_990_000_000_000_000_000
def post(n, parent, text):
    line = {"id": str(root + n), "created": f"2026-11-2{n // 400}T{(n // 60) % 24:02d}:{n % 60:02d}:00Z",
            "network": "twitter", "text": text, "mentions": [], "media": [],
            "url": f"https://x.com/i/status/{root + n}",
            "user": {"screenName": f"person{n % 97}", "name": f"Person {n % 97}"}}
    if parent is not None:
        line["inReplyToID"] = str(root + parent)
    return line
with open(sys.argv[1], "w") as out:
    out.write(json.dumps(post(0, None, "The root of a long conversation")) + "\n")
    for n in range(1, 601): out.write(json.dumps(post(n, 0, f"A reply, number {n}")) + "\n")
    for n in range(601, 901): out.write(json.dumps(post(n, n - 600, f"An answer to reply {n - 600}")) + "\n")
    for n in range(901, 1001): out.write(json.dumps(post(n, n - 300, f"Deeper still, {n}")) + "\n")
PY

measure() {  # the corpus and the server in DATA (with the database options given), then each page's latencies
    local data=$1; shift
    "$BIN" corpus generate --tweets 3000 --data-dir "$data" "$@" > /dev/null
    "$BIN" import "$WORK/conversation.ndjson" --data-dir "$data" "$@" > /dev/null
    "$BIN" serve --port 0 --data-dir "$data" --log-level warning "$@" > "$data/serve.log" &
    SERVER=$!
    until grep -q "running at" "$data/serve.log"; do sleep 0.2; done
    python3 - "$(grep -o "http://[^ ]*/" "$data/serve.log" | head -1)" "$REQUESTS" <<'PY'
import http.client, sys, time, urllib.parse
base, requests = urllib.parse.urlparse(sys.argv[1]), int(sys.argv[2])
root = 1_990_000_000_000_000_000
pages = [
    ("thread of 1,000 replies, first page", f"/search/thread/twitter/{root}"),
    ("its next page (?after=)", f"/search/thread/twitter/{root}?after={root + 50}"),
    ("a reply's thread", f"/search/thread/twitter/{root + 1}"),
    ("baseline: a Search page (from:person0)", "/search?q=from%3Aperson0"),
    ("baseline: the root's Mentions page", f"/search/posts/twitter/{root}"),
]
connection = http.client.HTTPConnection(base.hostname, base.port)
def get(path):
    connection.request("GET", path, headers={"Accept-Encoding": "gzip"})
    response = connection.getresponse()
    body = response.read()
    assert response.status == 200, (path, response.status)
    return body
print(f"{'page':<40} {'p50 ms':>8} {'p99 ms':>8} {'bytes (gzip)':>13}")
for name, path in pages:
    for _ in range(100): get(path)
    times = []
    for _ in range(requests):
        start = time.perf_counter(); body = get(path); times.append((time.perf_counter() - start) * 1000)
    times.sort()
    print(f"{name:<40} {times[len(times) // 2]:8.2f} {times[int(len(times) * 0.99) - 1]:8.2f} {len(body):13,}")
PY
    kill "$SERVER"; wait "$SERVER" 2> /dev/null || true; SERVER=
}

echo "SQLite:"
measure "$WORK/sqlite"
scripts/postgres-cluster start "$CLUSTER" 55496 > /dev/null
psql -X -q "postgresql://postgres@127.0.0.1:55496/postgres" -c "CREATE DATABASE bench"
echo "PostgreSQL:"
measure "$WORK/postgres" --database "postgresql://postgres@127.0.0.1:55496/bench"
