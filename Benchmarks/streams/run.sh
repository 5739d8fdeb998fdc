#!/usr/bin/env bash
# Live Popularity streams at scale (issue 39, part 5), in one run: 10,000 streams on one server over 10 terms, the
# server's memory per stream, and every stream's last table against the term's final /api/popularity after a burst
# of searches; beside it the floor, as many keep-alive connections that each made one ordinary request (what the
# server spends on an open connection before any stream). Release build; the client is `smashtag-bench streams`.
# Usage: Benchmarks/streams/run.sh [STREAMS] [DATA_DIR]   (default 10,000 streams; 100,000 demo posts generated into
# a temporary directory)
set -euo pipefail
cd "$(dirname "$0")/../.."
STREAMS=${1:-10000}
DATA=${2:-$(mktemp -d /tmp/smashtag-streams.XXXXXX)}
# Each process holds one descriptor per connection, and a few hundred more.
ulimit -n $((STREAMS + 2000))
for product in smashtag smashtag-bench; do
    swift build -c release --scratch-path .build-release --product $product > /dev/null
done
BIN=$PWD/.build-release/release
[ -f "$DATA/corpus.sqlite" ] || "$BIN/smashtag" corpus generate --tweets 100000 --data-dir "$DATA" > /dev/null

# The ten most used hashtags, each searched once so it is in Recents with a table to stream.
TERMS=$(python3 - "$DATA/corpus.sqlite" <<'PY'
import sys
sys.path.insert(0, "Benchmarks")
from corpus_terms import terms
print(",".join(terms(sys.argv[1], "#", 10)))
PY
)
IFS=, read -ra TERM_LIST <<< "$TERMS"

# A server on a new app store (the corpus is only read): the terms in Recents with their first page counted, so the
# burst's older pages are new to them however often the script runs on the same data directory.
serve() {
    rm -f "$DATA"/smashtag.sqlite*
    for term in "${TERM_LIST[@]}"; do "$BIN/smashtag" search "$term" --count 100 --data-dir "$DATA" > /dev/null; done
    "$BIN/smashtag" serve --port 18090 --data-dir "$DATA" --log-level warning > /dev/null &
    SERVER=$!
    until curl -sf http://127.0.0.1:18090/api/recents > /dev/null; do sleep 0.2; done
}
trap 'kill $SERVER 2> /dev/null || true' EXIT

echo "== Floor: $STREAMS keep-alive connections after one request each"
serve
"$BIN/smashtag-bench" streams --port 18090 --pid $SERVER --streams "$STREAMS" --terms "$TERMS" --floor
kill $SERVER; wait $SERVER 2> /dev/null || true

echo "== $STREAMS live Popularity streams over ${#TERM_LIST[@]} terms, then a burst of 100 searches"
serve
"$BIN/smashtag-bench" streams --port 18090 --pid $SERVER --streams "$STREAMS" --terms "$TERMS" --searches 100
