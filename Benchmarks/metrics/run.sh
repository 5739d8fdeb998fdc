#!/usr/bin/env bash
# Issue 50's figure for docs/PERFORMANCE.md: what keeping metrics costs the Search page. Two release servers on copies
# of one demo corpus, one with metrics (the default) and one with `--no-metrics`, in one run; `wrk -t2 -c32` on the
# same repeated `#tag` query, the two taking turns in SLICES slices each (requests/s is the slices' mean, p99 the
# worst slice's). Prometheus scraping /metrics once a second during the run is part of the cost measured.
# Usage: Benchmarks/metrics/run.sh [POSTS] [SECONDS] [SLICES]   (default 200,000 posts, 20 s, 10 slices)
set -euo pipefail
cd "$(dirname "$0")/../.."
. Benchmarks/wrk-slices.sh
POSTS=${1:-200000}
SECONDS_EACH=${2:-20}
SLICES=${3:-10}
WORK=$(mktemp -d)
servers=()
trap 'kill "${servers[@]}" 2> /dev/null; rm -rf "$WORK"' EXIT
"$BIN" corpus generate --tweets "$POSTS" --data-dir "$WORK/with" > /dev/null
cp -r "$WORK/with" "$WORK/without"

start() {  # data directory, port, options
    "$BIN" serve --port "$2" --data-dir "$1" --log-level warning "${@:3}" > /dev/null &
    servers+=($!)
    until curl -s -o /dev/null "http://127.0.0.1:$2/healthz"; do sleep 0.5; done
}
start "$WORK/with" 18091
start "$WORK/without" 18092 --no-metrics
WITH=http://127.0.0.1:18091 WITHOUT=http://127.0.0.1:18092

TAG=%23stanford
PAGE=/search?q=$TAG
for server in "$WITH" "$WITHOUT"; do
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$server$PAGE")" = 200 ] || { echo "$server$PAGE is not 200" >&2; exit 1; }
done
[ "$(curl -s -o /dev/null -w '%{http_code}' "$WITH/metrics")" = 200 ] || { echo "no metrics" >&2; exit 1; }
[ "$(curl -s -o /dev/null -w '%{http_code}' "$WITHOUT/metrics")" = 404 ] || { echo "--no-metrics keeps metrics" >&2; exit 1; }
# A scraper as Prometheus is one, once a second, for the whole run.
(while true; do curl -s -o /dev/null "$WITH/metrics"; sleep 1; done) &
servers+=($!)

slice=$(( SECONDS_EACH / SLICES > 1 ? SECONDS_EACH / SLICES : 2 ))
declare -A rates p99s
for _ in $(seq "$SLICES"); do
    for which in without with; do
        url=$([ "$which" = with ] && echo "$WITH$PAGE" || echo "$WITHOUT$PAGE")
        read -r r p <<< "$(rate "$slice" "$url")"
        rates[$which]="${rates[$which]:-} $r"
        p99s[$which]=$(echo "if ($p > ${p99s[$which]:-0}) $p else ${p99s[$which]:-0}" | bc -l)
    done
done
without=$(mean "${rates[without]}")
with=$(mean "${rates[with]}")
echo "## $(machine), $POSTS posts, ${SECONDS_EACH}s each in $SLICES slices"
echo "| Search page, repeated $TAG | requests/s | p99 | ÷ without |"
echo "|---|---:|---:|---:|"
echo "| --no-metrics (the baseline) | $without | ${p99s[without]} ms | 1.000 |"
echo "| metrics kept, /metrics scraped every second | $with | ${p99s[with]} ms | $(echo "scale=3; $with / $without" | bc -l) |"
echo "| per-slice requests/s, without: |${rates[without]} | | |"
echo "| per-slice requests/s, with: |${rates[with]} | | |"
