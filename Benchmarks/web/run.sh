#!/usr/bin/env bash
# The web figures of docs/PERFORMANCE.md (issue 6): requests/s and latency of the Search page for a #tag query on a
# corpus (1,000,000 tweets by default), 32 connections from wrk, beside a static file of the same size served by the
# same server (the ceiling); and the bytes of the page without images.
# Usage: Benchmarks/web/run.sh [CORPUS_DATA_DIR]   (default: generates 1,000,000 tweets into /tmp/smashtag-web-bench)
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v wrk > /dev/null || apt-get install -y -qq wrk > /dev/null
swift build -c release --scratch-path .build-release --product smashtag > /dev/null 2>&1
BIN=$PWD/.build-release/release/smashtag
DATA=${1:-/tmp/smashtag-web-bench}
if [ ! -f "$DATA/corpus.sqlite" ]; then "$BIN" corpus generate --tweets 1000000 --data-dir "$DATA" > /dev/null; fi
PORT=18080
"$BIN" serve --port $PORT --data-dir "$DATA" --log-level warning > /dev/null &
SERVER=$!
trap 'kill $SERVER' EXIT
sleep 2
PAGE="/search?q=%23stanford"
curl -s "http://127.0.0.1:$PORT$PAGE" > /tmp/smashtag-page.html
PUBLIC=$(dirname "$BIN")/Smashtag_SmashtagWeb.resources/Public
cp /tmp/smashtag-page.html "$PUBLIC/bench-static.html"
html=$(stat -c %s /tmp/smashtag-page.html); css=$(stat -c %s "$PUBLIC/app.css"); js=$(stat -c %s "$PUBLIC/app.js")
echo "## $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(date -u +%F)"
echo "bytes: HTML $html + CSS $css + JS $js = $((html + css + js)) (images excluded)"
for path in "$PAGE" "/bench-static.html"; do
    echo "== $path"
    wrk -t2 -c32 -d20s --latency "http://127.0.0.1:$PORT$path" | grep -E "Requests/sec|Latency|50%|99%|requests in|Non-2xx"
done
rm -f "$PUBLIC/bench-static.html"
