#!/usr/bin/env bash
# The figures of docs/PERFORMANCE.md for issue 38 (the corpus in PostgreSQL), with SQLite's beside them in the same
# run, release build, on a throwaway cluster given 2 GB of shared buffers:
#   1. import of N posts (twarc2 JSON Lines) into each corpus, and PostgreSQL's floor: `\copy` of the same rows into
#      empty tables with the same keys;
#   2. first-page latency at N posts for each query shape, each query searched ITERATIONS times;
#   3. live ingest of EVENTS Jetstream events into an empty corpus while searches run.
# Usage: Benchmarks/shared-corpus/run.sh [WORK_DIR]   (N=1000000, EVENTS=300000, ITERATIONS=300 by default;
#        PARTS="import search ingest" by default: search needs import's corpora)
set -euo pipefail
cd "$(dirname "$0")/../.."
N=${N:-1000000}
EVENTS=${EVENTS:-300000}
ITERATIONS=${ITERATIONS:-300}
PARTS=${PARTS:-import search ingest}
WORK=${1:-/tmp/smashtag-shared-bench}
END=2026-11-21T00:00:00Z
for product in smashtag smashtag-bench; do swift build -c release --scratch-path .build-release --product "$product" > /dev/null; done
BIN=$PWD/.build-release/release/smashtag
BENCH=$PWD/.build-release/release/smashtag-bench
rm -rf "$WORK" && mkdir -p "$WORK"
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
CLUSTER=$(mktemp -d /tmp/smashtag-shared-cluster.XXXXXX)
URL=$(scripts/postgres-cluster start "$CLUSTER" "$PORT")
trap 'scripts/postgres-cluster stop "$CLUSTER"' EXIT
psql -q "$URL" -c "ALTER SYSTEM SET shared_buffers = '2GB'" -c "ALTER SYSTEM SET max_wal_size = '4GB'"
scripts/postgres-cluster halt "$CLUSTER" && scripts/postgres-cluster resume "$CLUSTER"
database() { psql -q "$URL" -c "CREATE DATABASE $1"; echo "${URL%/postgres}/$1"; }
# Runs a command under /usr/bin/time; prints its wall seconds and peak RSS (MB).
measure() {
    /usr/bin/time -f "%e %M" -o "$WORK/time.txt" "$@" > /dev/null
    read -r seconds kilobytes < "$WORK/time.txt"
    echo "$seconds $((kilobytes / 1024))"
}

echo "## $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), PostgreSQL $(psql -At "$URL" -c 'SHOW server_version'), $(date -u +%F)"
SHARED=$(database corpus)
if [[ $PARTS == *import* ]]; then
"$BIN" corpus generate --tweets "$N" --end "$END" --out "$WORK/posts.jsonl" > /dev/null
echo "### Import of $N posts ($(( $(stat -c %s "$WORK/posts.jsonl") / 1048576 )) MB of twarc2)"
read -r seconds rss < <(measure "$BIN" import "$WORK/posts.jsonl" --data-dir "$WORK/sqlite")
echo "SQLite: ${seconds}s, $(echo "$N / $seconds" | bc) posts/s, peak ${rss} MB"
read -r seconds rss < <(measure "$BIN" import "$WORK/posts.jsonl" --data-dir "$WORK/pg" --database "$SHARED")
echo "PostgreSQL: ${seconds}s, $(echo "$N / $seconds" | bc) posts/s, peak ${rss} MB"
psql -q "$SHARED" -c "VACUUM ANALYZE"
psql -At "$SHARED" -c "SELECT 'size: ' || pg_size_pretty(sum(pg_total_relation_size(c))) || ', ' || (sum(pg_total_relation_size(c)) / $N) || ' bytes per post; postings ' || (SELECT count(*) FROM corpus_posting) FROM unnest(ARRAY['corpus_post', 'corpus_posting', 'corpus_term', 'corpus_author']) c"
echo "SQLite size: $(( $(stat -c %s "$WORK/sqlite/corpus.sqlite") / N )) bytes per post"
# The floor: the same rows, already made, copied by psql into empty tables with the same primary keys.
psql -q "$SHARED" -c "\\copy corpus_post TO '$WORK/post.copy'" -c "\\copy corpus_posting TO '$WORK/posting.copy'"
psql -q "$SHARED" -c "CREATE TABLE floor_post (LIKE corpus_post INCLUDING ALL)" -c "CREATE TABLE floor_posting (LIKE corpus_posting INCLUDING ALL)"
started=$(date +%s.%N)
psql -q "$SHARED" -c "\\copy floor_post FROM '$WORK/post.copy'" -c "\\copy floor_posting FROM '$WORK/posting.copy'"
floor=$(echo "$(date +%s.%N) - $started" | bc)
echo "floor (psql \\copy of the same rows): ${floor}s, $(echo "$N / $floor" | bc) posts/s"
psql -q "$SHARED" -c "DROP TABLE floor_post, floor_posting"
rm -f "$WORK"/*.copy
fi

if [[ $PARTS == *search* ]]; then
echo "### First page, $ITERATIONS searches per query"
# The most used hashtags and author, a common word, rare hashtag, a phrase, combinations.
top_tags=$(psql -At "$SHARED" -c "SELECT key FROM corpus_term JOIN corpus_posting ON term_id = id WHERE key LIKE '#%' GROUP BY key ORDER BY count(*) DESC LIMIT 2")
tag1=$(echo "$top_tags" | sed -n 1p); tag2=$(echo "$top_tags" | sed -n 2p)
rare=$(psql -At "$SHARED" -c "SELECT key FROM corpus_term JOIN corpus_posting ON term_id = id WHERE key LIKE '#%' GROUP BY key HAVING count(*) > 1 ORDER BY count(*) LIMIT 1")
author=$(psql -At "$SHARED" -c "SELECT key FROM corpus_term JOIN corpus_posting ON term_id = id WHERE key LIKE 'from:%' GROUP BY key ORDER BY count(*) DESC LIMIT 1")
queries=("$tag1" "$author" "pictures" "$tag1 OR $tag2" "$rare" "$tag2 pictures -filter:retweets" "\"watching the\"" "filter:media -filter:retweets" "($tag1 OR $tag2) -$author" "$tag1 $tag2")
echo "SQLite:"
"$BENCH" search --data-dir "$WORK/sqlite" --count 20 --iterations "$ITERATIONS" "${queries[@]}"
echo "PostgreSQL:"
"$BENCH" search --data-dir "$WORK/pg" --database "$SHARED" --count 20 --iterations "$ITERATIONS" "${queries[@]}"
fi

if [[ $PARTS == *ingest* ]]; then

echo "### Live ingest of $EVENTS events while searches run"
echo "SQLite:"
"$BENCH" ingest --events "$EVENTS" --data-dir "$WORK/ingest-sqlite" --file "$WORK/events.jsonl"
echo "PostgreSQL:"
"$BENCH" ingest --events "$EVENTS" --data-dir "$WORK/ingest-pg" --file "$WORK/events.jsonl" --database "$(database ingest)"
fi
