#!/usr/bin/env bash
# The corpus figures of docs/PERFORMANCE.md (issue 3), on a release build:
#   generation of N demo tweets into a corpus; database size per tweet; first-page search latency on it;
#   import throughput and peak memory of twarc2 JSON Lines files of two sizes (memory must not grow with the file).
# Usage: Benchmarks/corpus/run.sh [WORK_DIR]   (N=1000000 by default; IMPORT_SMALL / IMPORT_LARGE tweet counts)
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${N:-1000000}
IMPORT_SMALL=${IMPORT_SMALL:-200000}
IMPORT_LARGE=${IMPORT_LARGE:-1000000}
WORK=${1:-/tmp/smashtag-corpus-bench}
END=2026-11-21T00:00:00Z
for product in smashtag smashtag-bench; do swift build -c release --scratch-path .build-release --product "$product" >/dev/null 2>&1; done
BIN=$PWD/.build-release/release/smashtag
BENCH=$PWD/.build-release/release/smashtag-bench
rm -rf "$WORK" && mkdir -p "$WORK"

# Runs a command under /usr/bin/time; prints its wall seconds and peak RSS (MB).
measure() {
    /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" >/dev/null
    read -r seconds kilobytes < "$WORK/time.txt"
    echo "$seconds $((kilobytes / 1024))"
}

echo "## machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(date -u +%F)"
read -r seconds rss < <(measure "$BIN" corpus generate --tweets "$N" --end "$END" --data-dir "$WORK/gen")
echo "generate: $N tweets in ${seconds}s ($(echo "$N / $seconds" | bc) tweets/s), peak ${rss} MB"

sqlite3 "$WORK/gen/corpus.sqlite" "PRAGMA wal_checkpoint(TRUNCATE);" >/dev/null
bytes=$(stat -c %s "$WORK/gen/corpus.sqlite")
echo "database: $((bytes / 1024 / 1024)) MB, $((bytes / N)) bytes per tweet"
sqlite3 "$WORK/gen/corpus.sqlite" "SELECT 'tables: ' || group_concat(name || ' ' || (pgsize / 1048576) || ' MB', ', ') FROM (SELECT name, sum(pgsize) AS pgsize FROM dbstat GROUP BY name ORDER BY 2 DESC LIMIT 8);" 2>/dev/null || true

# Queries: the most used hashtag and author, a common word, an OR of two popular hashtags, a rare hashtag,
# and a combination with an exclusion.
top_tags=$(python3 Benchmarks/corpus_terms.py "$WORK/gen/corpus.sqlite" '#' 2)
tag1=$(echo "$top_tags" | sed -n 1p); tag2=$(echo "$top_tags" | sed -n 2p)
rare=$(python3 Benchmarks/corpus_terms.py "$WORK/gen/corpus.sqlite" '#' 1 --rarest)
author=$(python3 Benchmarks/corpus_terms.py "$WORK/gen/corpus.sqlite" 'from:' 1)
"$BENCH" search --data-dir "$WORK/gen" --count 20 "$tag1" "$author" "pictures" "$tag1 OR $tag2" "$rare" "$tag2 pictures -filter:retweets"
"$BENCH" search --data-dir "$WORK/gen" --count 100 --iterations 200 "$tag1" "$author" "pictures" "$tag1 OR $tag2"

for tweets in "$IMPORT_SMALL" "$IMPORT_LARGE"; do
    "$BIN" corpus generate --tweets "$tweets" --seed 11 --end "$END" --out "$WORK/import.jsonl" >/dev/null
    size=$(( $(stat -c %s "$WORK/import.jsonl") / 1024 / 1024 ))
    read -r seconds rss < <(measure "$BIN" import "$WORK/import.jsonl" --data-dir "$WORK/import-$tweets")
    echo "import: $tweets tweets, ${size} MB twarc2 JSONL in ${seconds}s ($(echo "$tweets / $seconds" | bc) tweets/s), peak ${rss} MB"
    rm -f "$WORK/import.jsonl"
done
