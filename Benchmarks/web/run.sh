#!/usr/bin/env bash
# The web figures of docs/PERFORMANCE.md (issue 13), in one run: each page or JSON twin under `wrk -t2 -c32`, beside
# a saved copy of its own bytes served as a static file by the same server (the ceiling), on a 200,000-post demo
# corpus; the Search page's size gzip-compressed.
#   - Search page, the same #tag query on every request;
#   - a different query on every request: `#a OR #b` and `#a -#b` over the 150 most used hashtags; the same again
#     as another site's link opens them, which records nothing (what recording a new term costs is the difference);
#   - the Mentions page and the JSON twins.
# Each page and its static copy take turns in SLICES slices of SECONDS/SLICES each; requests/s is the slices' mean and
# p99 the worst slice's.
# Usage: Benchmarks/web/run.sh [DATA_DIR] [SECONDS] [SLICES]   (default: 200,000 posts generated into
# /tmp/smashtag-web-bench-200k, 15 s, 5 slices); BIN=PATH measures another build of smashtag (a baseline)
set -euo pipefail
cd "$(dirname "$0")/../.."
command -v wrk > /dev/null || { apt-get update -qq && apt-get install -y -qq wrk > /dev/null; }
swift build -c release --scratch-path .build-release --product smashtag > /dev/null
BIN=${BIN:-$PWD/.build-release/release/smashtag}  # BIN=…: another build (a baseline) beside this one
DATA=${1:-/tmp/smashtag-web-bench-200k}
SECONDS_EACH=${2:-15}
SLICES=${3:-5}
if [ ! -f "$DATA/corpus.sqlite" ]; then "$BIN" corpus generate --tweets 200000 --data-dir "$DATA" > /dev/null; fi
PORT=18080
BASE="http://127.0.0.1:$PORT"
PUBLIC=$(dirname "$BIN")/Smashtag_SmashtagWeb.resources/Public
WORK=$(mktemp -d)
"$BIN" serve --port $PORT --data-dir "$DATA" --log-level warning > /dev/null &
SERVER=$!
trap 'kill $SERVER; rm -rf "$WORK" "$PUBLIC"/bench-*' EXIT
until curl -sf "$BASE/api/recents" > /dev/null; do sleep 0.5; done

# The 150 most used hashtags of the corpus, and the two query shapes over neighbouring pairs of them.
python3 Benchmarks/corpus_terms.py "$DATA/corpus.sqlite" --search-paths 150 > "$WORK/queries.txt"

TAG=$(head -1 "$WORK/queries.txt" | sed -E 's|/search\?q=(%23[^%]*)%20.*|\1|')
ID=$(curl -s "$BASE/api/search?q=$TAG" | python3 -c 'import json, sys; print(json.load(sys.stdin)["tweets"][0]["id"])')

rate() {  # requests/s and p99 (ms) of wrk for SECONDS on a path (or, with a third argument, on the paths in that file)
    local out seconds=$1 path=$2 header=()
    if [ -n "${HEADER:-}" ]; then header=(-H "$HEADER"); fi  # HEADER=…: one more request header
    if [ $# -gt 2 ]; then
        out=$(PATHS_FILE="$3" wrk -t2 -c32 -d"${seconds}s" --latency "${header[@]}" -s Benchmarks/rotate.lua "$BASE/")
    else out=$(wrk -t2 -c32 -d"${seconds}s" --latency "${header[@]}" "$BASE$path"); fi
    if echo "$out" | grep -q "Non-2xx"; then echo "error responses while measuring $path: the figures would mean nothing" >&2; exit 1; fi
    echo "$out" | awk '/Requests\/sec/ {r=$2}
        / 99%/ {p=$2; m=1; if (p ~ /us$/) m=0.001; else if (p ~ /ms$/) m=1; else if (p ~ /s$/) m=1000; sub(/[a-z]+$/, "", p); p=p*m}
        END {printf "%s %.2f", r, p}'
}

measure() {  # file name, what is measured, the path (its bytes become the static copy), [a file of paths to rotate]
    local static="bench-$1" name=$2 path=$3
    # A redirect or an error would be measured as fast as it is empty: only a 200 is a page.
    [ "$(curl -s -o /dev/null -w '%{http_code}' "$BASE$path")" = 200 ] || { echo "$path does not answer 200" >&2; exit 1; }
    curl -s "$BASE$path" > "$PUBLIC/$static"
    # The page and its static copy take turns, a slice each, so that both meet the same changes in the machine's
    # speed: measured one after the other, the ceiling alone could run 50% faster than the page's run next to it.
    local slice=$(( SECONDS_EACH / SLICES > 1 ? SECONDS_EACH / SLICES : 2 )) pages=() files=() page_p99=0 file_p99=0 r p
    for _ in $(seq "$SLICES"); do
        read -r r p <<< "$(rate "$slice" "$path" ${4:-})"; pages+=("$r"); page_p99=$(echo "if ($p > $page_p99) $p else $page_p99" | bc -l)
        read -r r p <<< "$(rate "$slice" "/$static")"; files+=("$r"); file_p99=$(echo "if ($p > $file_p99) $p else $file_p99" | bc -l)
    done
    local page_rate file_rate
    page_rate=$(printf '%s\n' "${pages[@]}" | awk '{s+=$1} END {printf "%.0f", s/NR}')
    file_rate=$(printf '%s\n' "${files[@]}" | awk '{s+=$1} END {printf "%.0f", s/NR}')
    printf "| %s | %s | %.2fms | %s | %.2fms | **%.3f** |\n" "$name" "$page_rate" "$page_p99" "$file_rate" "$file_p99" \
        "$(echo "$page_rate / $file_rate" | bc -l)"
}

echo "## $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(date -u +%F), ${SECONDS_EACH}s each in $SLICES slices"
echo "| measure | requests/s | p99 | static file requests/s | p99 | ratio |"
echo "|---|---:|---:|---:|---:|---:|"
measure search.html "Search page, repeated $TAG" "/search?q=$TAG"
measure mentions.html "Mentions page" "/search/posts/twitter/$ID"
measure search.json "JSON twin /api/search" "/api/search?q=$TAG"
measure tweet.json "JSON twin /api/posts/twitter/ID" "/api/posts/twitter/$ID"
# Last: 300 different queries push every other term out of Recents (it keeps 100), and their tweets with them.
measure queries.html "Search page, a different query each request" "$(sed -n 2p "$WORK/queries.txt")" "$WORK/queries.txt"
# The same pages as another site's link opens them (`Sec-Fetch-Site: cross-site`): shown, not recorded (nothing is
# written), so the two rows' difference is what recording a new term costs.
HEADER="Sec-Fetch-Site: cross-site" measure unrecorded.html "Search page, a different query each request, not recorded" \
    "$(sed -n 2p "$WORK/queries.txt")" "$WORK/queries.txt"
plain=$(curl -s "$BASE/search?q=$TAG" | wc -c)
gzipped=$(curl -s -H 'Accept-Encoding: gzip' "$BASE/search?q=$TAG" | wc -c)
echo
echo "Search page $TAG: $plain bytes, $gzipped gzip-compressed (target ≤ 3 KB)"
