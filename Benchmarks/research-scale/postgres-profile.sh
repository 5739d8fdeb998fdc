#!/usr/bin/env bash
# Where PostgreSQL's time goes in searches that each add a new term (docs/PERFORMANCE.md, "Research scale
# (issue 39)", part 4): the same run as postgres.sh's first part (`smashtag-bench terms`, 32 at once over 300 varied
# queries on a 200,000-post demo corpus), on a throwaway cluster with `pg_stat_statements` tracking every statement,
# those inside the PL/pgSQL functions too. Prints the statements that took the most of the server's time.
# Usage: Benchmarks/research-scale/postgres-profile.sh [SECONDS]   (default 10)
set -euo pipefail
cd "$(dirname "$0")/../.."
for product in smashtag smashtag-bench; do
    swift build -c release --scratch-path .build-release --product "$product" > /dev/null
done
BIN=$PWD/.build-release/release/smashtag
BENCH=$PWD/.build-release/release/smashtag-bench
WORK=$(mktemp -d /tmp/smashtag-pg-profile.XXXXXX)
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
CLUSTER=$(mktemp -d /tmp/smashtag-pg-cluster.XXXXXX)
scripts/postgres-cluster start "$CLUSTER" "$PORT" > /dev/null
trap 'scripts/postgres-cluster stop "$CLUSTER"; rm -rf "$WORK"' EXIT
# The cluster again, with the extension loaded (it must be, at start).
scripts/postgres-cluster halt "$CLUSTER"
echo " -c shared_preload_libraries=pg_stat_statements -c pg_stat_statements.track=all" >> "$CLUSTER/options"
sed -i -z 's/\n -c/ -c/' "$CLUSTER/options"
scripts/postgres-cluster resume "$CLUSTER"
URL="postgresql://postgres@127.0.0.1:$PORT"
psql -q "$URL/postgres" -c "CREATE DATABASE profile"
psql -q "$URL/profile" -c "CREATE EXTENSION pg_stat_statements"

"$BIN" corpus generate --tweets 200000 --data-dir "$WORK/data" > /dev/null
python3 Benchmarks/corpus_terms.py "$WORK/data/corpus.sqlite" --pair-queries 150 > "$WORK/queries.txt"
psql -q "$URL/profile" -c "SELECT pg_stat_statements_reset()" > /dev/null
"$BENCH" terms "$WORK/queries.txt" --data-dir "$WORK/data" --seconds "${1:-10}" --database "$URL/profile"
echo "### The server's time by statement (top-level: the functions; nested: their statements)"
psql "$URL/profile" -P pager=off -c "
    SELECT round((100 * total_exec_time / sum(total_exec_time) FILTER (WHERE toplevel) OVER ())::numeric, 1)
            AS \"% of top-level\",
        round((total_exec_time / calls)::numeric, 3) AS \"ms a call\", calls, toplevel,
        left(regexp_replace(query, '\s+', ' ', 'g'), 110) AS statement
    FROM pg_stat_statements WHERE dbid = (SELECT oid FROM pg_database WHERE datname = 'profile')
    ORDER BY total_exec_time DESC LIMIT 25"
