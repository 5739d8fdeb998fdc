#!/usr/bin/env bash
# The figures of docs/PERFORMANCE.md for issue 39, parts 2 and 3: the SQLite corpus at N posts (10,000,000 by
# default, about 6 GB of twarc2), release build.
#   import:  `smashtag import` of the twarc2 file under GNU time (wall, peak RSS) with its resident memory sampled
#            every 2 s; beside it, in the same run, SQLite's floor: the same rows into the same schema by
#            `smashtag-bench import-floor` (prepared inserts, one transaction per batch, rows made beforehand), which
#            also times reading and decoding the file on one thread; the corpus's size per post, by table.
#   resume:  the import of the first RESUME_N posts killed with SIGKILL halfway, then run again to the end: what
#            the second run costs, and that the corpus then holds every post once.
#   search:  `smashtag-bench search-distinct` on the imported corpus: PER_SHAPE different queries of each shape,
#            each searched once in a fresh process, and older paging 500 pages deep; beside it, the baseline in the
#            same run: the same shapes' first queries repeated (`smashtag-bench search`, the page cache warm).
# Usage: Benchmarks/research-scale/corpus.sh [WORK_DIR]   (N=10000000, RESUME_N=1000000, PER_SHAPE=200;
#        PARTS="import resume search"; the twarc2 file is kept in WORK_DIR and reused while N is the same)
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${N:-10000000}
RESUME_N=${RESUME_N:-1000000}
PER_SHAPE=${PER_SHAPE:-200}
PARTS=${PARTS:-import resume search}
WORK=${1:-/tmp/smashtag-research-corpus}
END=2026-11-21T00:00:00Z
for product in smashtag smashtag-bench; do
    swift build -c release --scratch-path .build-release --product "$product" > /dev/null
done
BIN=$PWD/.build-release/release/smashtag
BENCH=$PWD/.build-release/release/smashtag-bench
mkdir -p "$WORK"
POSTS=$WORK/posts-$N.jsonl

# Runs a command under GNU time, sampling its resident memory every 2 s into $WORK/rss.txt; prints its wall seconds
# and peak RSS (MB).
measure() {
    /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" > /dev/null 2> "$WORK/stderr.txt" &
    local timer=$!
    : > "$WORK/rss.txt"
    while kill -0 "$timer" 2> /dev/null; do
        local pid
        pid=$(pgrep -P "$timer" | head -1 || true)
        [[ -n $pid ]] && awk '/VmRSS/ { print $2 }' "/proc/$pid/status" >> "$WORK/rss.txt" 2> /dev/null || true
        sleep 2
    done
    wait "$timer" || true
    read -r seconds kilobytes < "$WORK/time.txt"
    echo "$seconds $((kilobytes / 1024))"
}

echo "## $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(free -g | awk '/Mem/ { print $2 }') GB, SQLite $(sqlite3 --version | cut -d' ' -f1), $(date -u +%F)"
if [[ ! -f $POSTS ]]; then
    started=$(date +%s.%N)
    "$BIN" corpus generate --tweets "$N" --end "$END" --out "$POSTS" > /dev/null
    echo "generated $N posts as twarc2 in $(echo "$(date +%s.%N) - $started" | bc | cut -d. -f1) s"
fi
echo "twarc2 file: $(( $(stat -c %s "$POSTS") / 1048576 )) MB, $N posts"

if [[ $PARTS == *import* ]]; then
    echo "### Import of $N posts"
    rm -rf "$WORK/sqlite" "$WORK/floor.sqlite"*
    read -r seconds rss < <(measure "$BIN" import "$POSTS" --data-dir "$WORK/sqlite")
    sort -n "$WORK/rss.txt" | awk 'NR == 1 { low = $1 } { high = $1 } END { printf "resident memory sampled every 2 s: %d–%d MB\n", low / 1024, high / 1024 }'
    echo "smashtag import: ${seconds} s, $(echo "$N / $seconds" | bc) posts/s, peak RSS ${rss} MB"
    "$BENCH" import-floor "$POSTS" --database "$WORK/floor.sqlite" | tee "$WORK/floor.json"
    floor=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["insertSeconds"])' "$WORK/floor.json")
    echo "floor: ${floor} s, $(echo "$N / $floor" | bc) posts/s; import / floor = $(echo "scale=2; $seconds / $floor" | bc)×"
    rm -f "$WORK/floor.sqlite"*
    DB=$WORK/sqlite/corpus.sqlite
    sqlite3 "$DB" "PRAGMA wal_checkpoint(TRUNCATE);" > /dev/null
    bytes=$(stat -c %s "$DB")
    echo "corpus file: $((bytes / 1048576)) MB, $((bytes / N)) bytes per post"
    sqlite3 "$DB" "SELECT 'by table (bytes per post): ' || group_concat(name || ' ' || (pgsize / $N), ', ') FROM (SELECT CASE WHEN name LIKE 'searchIndex%' THEN 'searchIndex (FTS5)' WHEN name LIKE 'sqlite_autoindex_author%' OR name = 'author' THEN 'author' ELSE name END AS name, sum(pgsize) AS pgsize FROM dbstat GROUP BY 1 ORDER BY 2 DESC)"
fi

if [[ $PARTS == *resume* ]]; then
    echo "### Killed halfway through $RESUME_N posts, then run again"
    head -n $((RESUME_N / 100)) "$POSTS" > "$WORK/resume.jsonl"
    rm -rf "$WORK/resume"
    started=$(date +%s.%N)
    "$BIN" import "$WORK/resume.jsonl" --data-dir "$WORK/resume" > /dev/null &
    importer=$!
    until [[ -f $WORK/resume/corpus.sqlite ]] && (( $(sqlite3 "$WORK/resume/corpus.sqlite" "SELECT count(*) FROM post" 2> /dev/null || echo 0) >= RESUME_N / 2 )); do sleep 0.2; done
    kill -9 "$importer"; wait "$importer" 2> /dev/null || true
    killed=$(echo "$(date +%s.%N) - $started" | bc)
    stored=$(sqlite3 "$WORK/resume/corpus.sqlite" "SELECT count(*) FROM post")
    started=$(date +%s.%N)
    summary=$("$BIN" import "$WORK/resume.jsonl" --data-dir "$WORK/resume")
    again=$(echo "$(date +%s.%N) - $started" | bc)
    echo "killed after $(printf %.1f "$killed") s with $stored posts stored; run again: $(printf %.1f "$again") s — $summary"
    echo "posts stored: $(sqlite3 "$WORK/resume/corpus.sqlite" "SELECT count(*) FROM post"), distinct: $(sqlite3 "$WORK/resume/corpus.sqlite" "SELECT count(DISTINCT id) FROM post")"
    rm -rf "$WORK/resume" "$WORK/resume.jsonl"
fi

if [[ $PARTS == *search* ]]; then
    echo "### Search at $N posts: distinct queries, each once, in a fresh process"
    "$BENCH" search-distinct --data-dir "$WORK/sqlite" --per-shape "$PER_SHAPE"
    echo "### Baseline: one query of each shape repeated 300 times (warm)"
    mapfile -t examples < <(python3 -c 'import json, sys
for line in sys.stdin:
    row = json.loads(line)
    if "example" in row: print(row["example"])' < <("$BENCH" search-distinct --data-dir "$WORK/sqlite" --per-shape 1 --deep-terms 0))
    "$BENCH" search --data-dir "$WORK/sqlite" --count 20 --iterations 300 "${examples[@]}"
fi
