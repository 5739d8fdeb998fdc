#!/usr/bin/env bash
# N Smashtag servers on one PostgreSQL behind nginx, on this machine: the sample deployment of docs/GUIDE.md.
#
# Usage: deploy/run-servers.sh [-n N] [--base-port P] [--port P] [--data-dir DIR] [--pg-port P] [--ingest bluesky]
#                              [--copy-corpus] [-- SERVE-OPTION...]
#   -n N            how many servers (default 2), on 127.0.0.1, ports P..P+N-1 (--base-port, default 8081)
#   --port P        where nginx listens, on 127.0.0.1 (default 8080)
#   --data-dir DIR  the servers' data directory, and the logs (default $SMASHTAG_HOME, else ~/.local/share/smashtag)
#   --ingest bluesky  every server is given it; the one elected runs the live index, another takes over if it stops
#   --copy-corpus   copy DIR's SQLite corpus into the database first (smashtag corpus copy; resumable)
#   -- ...          more options for every `smashtag serve` (--tags swift, --log-level debug, …)
# The database is $SMASHTAG_DATABASE_URL; unset, a local PostgreSQL cluster in DIR/postgres (port --pg-port, default
# 5433), started here and stopped on exit with its data kept. Ctrl-C or SIGTERM stops everything this script started.
set -euo pipefail
cd "$(dirname "$0")/.."

usage() { sed -n '4,13p' "$0" | cut -c3-; }
fail() {
    echo "run-servers: $*" >&2
    exit 1
}
value() { [ $# -ge 2 ] || fail "$1 needs a value (--help shows the options)."; }

count=2 base='' port=8080 pg_port=5433 copy_corpus=''
data=${SMASHTAG_HOME:-${XDG_DATA_HOME:-$HOME/.local/share}/smashtag}
serve_options=()
while [ $# -gt 0 ]; do
    case $1 in
    -n) value "$@" && count=$2 && shift 2 ;;
    --base-port) value "$@" && base=$2 && shift 2 ;;
    --port) value "$@" && port=$2 && shift 2 ;;
    --data-dir) value "$@" && data=$2 && shift 2 ;;
    --pg-port) value "$@" && pg_port=$2 && shift 2 ;;
    --ingest) value "$@" && serve_options+=(--ingest "$2") && shift 2 ;;
    --copy-corpus) copy_corpus=1 && shift ;;
    --) shift && serve_options+=("$@") && break ;;
    -h | --help) usage && exit 0 ;;
    *) usage >&2 && exit 2 ;;
    esac
done
base=${base:-$((port + 1))}
for number in "$count" "$base" "$port" "$pg_port"; do
    [[ $number =~ ^[1-9][0-9]{0,4}$ ]] || fail "$number is not a positive number."
done
last=$((base + count - 1))
((last <= 65535)) || fail "ports $base–$last: the last is above 65535."
((port < base || port > last)) || fail "nginx's port $port is one of the servers' ($base–$last)."
mkdir -p "$data/logs"
data=$(cd "$data" && pwd) # absolute: nginx and the servers do not run from here
logs=$data/logs

# What this script started, for cleanup: it stops only those.
servers=() nginx='' cluster='' run=''
cleanup() {
    trap '' INT TERM # a second Ctrl-C must not leave half of it running
    set +e
    [ ${#servers[@]} -eq 0 ] && [ -z "$cluster" ] && return
    echo "run-servers: stopping…" >&2
    [ -z "$nginx" ] || kill -TERM "$nginx" 2> /dev/null # TERM, not QUIT: an open event stream would hold QUIT an hour
    [ ${#servers[@]} -eq 0 ] || kill -TERM "${servers[@]}" 2> /dev/null
    # A server commits what it was doing before it exits; one that has not exited after 15 s is killed.
    local deadline=$((SECONDS + 15)) pid
    for pid in ${nginx:+"$nginx"} "${servers[@]}"; do
        while kill -0 "$pid" 2> /dev/null && ((SECONDS < deadline)); do sleep 0.1; done
        kill -KILL "$pid" 2> /dev/null
    done
    wait
    # halt, not stop: stop would delete the cluster, and with it the corpus and Recents. A cluster whose first start
    # did not finish holds nothing yet: it is removed, so that the next run makes it anew.
    if [ -n "$cluster" ] && [ -f "$cluster/url" ]; then
        scripts/postgres-cluster halt "$cluster" 2> /dev/null
    elif [ -n "$cluster" ]; then
        scripts/postgres-cluster stop "$cluster"
    fi
    [ -z "$run" ] || rm -rf "$run"
    echo "run-servers: stopped." >&2
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# Every port free before anything starts: another run on them would otherwise fail halfway, or lose its database.
wanted=("$port")
for ((server = base; server <= last; server++)); do wanted+=("$server"); done
for taken in "${wanted[@]}"; do
    ! (: > "/dev/tcp/127.0.0.1/$taken") 2> /dev/null || fail "port $taken is in use (--port, --base-port: others)."
done

# Debian's packages, only where missing: the machine's own installation is used as it is.
install_packages() {
    echo "run-servers: installing $* from Debian's packages…" >&2
    apt-get update -qq > /dev/null && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" > /dev/null
}
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx) # /usr/sbin is not on every user's PATH
[ -x "$nginx_bin" ] || { install_packages nginx && nginx_bin=/usr/sbin/nginx; }

if [ -z "${SMASHTAG_DATABASE_URL:-}" ]; then
    compgen -G '/usr/lib/postgresql/*/bin/initdb' > /dev/null || install_packages postgresql
    if [ "$(id -u)" = 0 ] && ! runuser -u postgres -- test -x "$data"; then
        fail "PostgreSQL runs as the postgres user, which cannot reach $data: choose a data directory it can reach" \
            "(--data-dir /srv/smashtag), or give SMASHTAG_DATABASE_URL."
    fi
    # The cluster's URL is kept beside it: a cluster without one is not this script's, and is left alone.
    # cluster is set before each start, so that a Ctrl-C during it still stops it.
    if [ -f "$data/postgres/url" ]; then
        cluster=$data/postgres
        scripts/postgres-cluster resume "$cluster" || fail "PostgreSQL did not start (its log: $cluster/server.log)."
    elif [ -e "$data/postgres" ]; then
        fail "$data/postgres is not a cluster this script made; move it away, or choose another --data-dir."
    else
        cluster=$data/postgres
        url=$(scripts/postgres-cluster start "$cluster" "$pg_port") || {
            cat "$cluster/server.log" >&2 2> /dev/null
            fail "PostgreSQL did not start on port $pg_port (is it taken? --pg-port chooses another)."
        }
        echo "$url" > "$cluster/url"
    fi
    SMASHTAG_DATABASE_URL=$(< "$cluster/url")
fi
export SMASHTAG_DATABASE_URL # in the environment, not on command lines: ps shows those, password and all
database=$(sed -E 's#(//[^:/@]*):[^@/]*@#\1:…@#' <<< "$SMASHTAG_DATABASE_URL") # to print, without its password

# Each server opens up to 32 connections at peak: tell, rather than let the last servers fail under load.
if command -v psql > /dev/null &&
    allowed=$(PGCONNECT_TIMEOUT=5 psql -w -Atq -c 'show max_connections' "$SMASHTAG_DATABASE_URL" 2> /dev/null) &&
    ((allowed < 32 * count + 10)); then
    echo "run-servers: PostgreSQL allows $allowed connections; $count servers need $((32 * count + 10))" \
        "(32 each and 10 to spare). Set max_connections, or run fewer servers." >&2
fi

# Its own scratch path: a release build in .build would fight the development builds over the same directory.
swift build -c release --product smashtag --scratch-path .build-release
bin=$PWD/.build-release/release/smashtag

if [ -n "$copy_corpus" ]; then
    "$bin" corpus copy --to "$SMASHTAG_DATABASE_URL" --data-dir "$data"
fi

# All at once: the first to start on an empty database generates the demo; the others wait for it, then start. nginx,
# on this machine, is the proxy whose X-Forwarded-For and -Proto the servers believe (addresses, HTTPS cookies).
for ((server = base; server <= last; server++)); do
    "$bin" serve --port "$server" --data-dir "$data" --trusted-proxy 127.0.0.1 "${serve_options[@]}" \
        > "$logs/server-$server.log" 2>&1 &
    servers+=($!)
done
echo "run-servers: starting $count servers on ports $base–$last (logs: $logs/server-PORT.log)…" >&2

# Each server says "running at" once it listens; generating the demo (20,000 posts) takes the first start longest.
deadline=$((SECONDS + 300))
for ((i = 0; i < count; i++)); do
    server=$((base + i)) log=$logs/server-$server.log
    until grep -qs 'running at' "$log"; do
        kill -0 "${servers[i]}" 2> /dev/null || { tail -n 20 "$log" >&2; fail "the server on port $server stopped."; }
        ((SECONDS < deadline)) || { tail -n 20 "$log" >&2; fail "the servers did not start within 300 s."; }
        sleep 0.2
    done
    # Listening is not serving: each server's /readyz says when its database and corpus answer.
    until [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$server/readyz")" = 200 ]; do
        ((SECONDS < deadline)) || fail "the server on port $server is not ready: $(curl -s "http://127.0.0.1:$server/readyz")"
        sleep 0.2
    done
done

# nginx's configuration, filled in, in a directory of its own that its workers (nobody, when run as root) can reach.
run=$(mktemp -d "${TMPDIR:-/tmp}/smashtag-nginx.XXXXXX")
chmod 755 "$run"
upstreams=
for ((server = base; server <= last; server++)); do
    upstreams+="server 127.0.0.1:$server max_fails=3 fail_timeout=5s;"$'\n        '
done
config=$(< deploy/nginx.conf.template)
config=${config//@SERVERS@/"${upstreams%$'\n        '}"}
config=${config//@PORT@/"$port"}
config=${config//@RUN@/"$run"}
config=${config//@LOGS@/"$logs"}
printf '%s\n' "$config" > "$run/nginx.conf"
"$nginx_bin" -q -t -c "$run/nginx.conf" -p "$run" -e "$logs/nginx-error.log"
"$nginx_bin" -c "$run/nginx.conf" -p "$run" -e "$logs/nginx-error.log" -g 'daemon off;' &
nginx=$!
deadline=$((SECONDS + 10))
until (: > "/dev/tcp/127.0.0.1/$port") 2> /dev/null; do
    kill -0 "$nginx" 2> /dev/null || fail "nginx stopped (its log: $logs/nginx-error.log)."
    ((SECONDS < deadline)) || fail "nginx did not answer on port $port within 10 s (its log: $logs/nginx-error.log)."
    sleep 0.1
done

echo "Smashtag is running at http://127.0.0.1:$port/ ($count servers behind nginx, on $database) — Ctrl-C stops it."

# Until Ctrl-C: a server that stops is told and the others go on answering; without nginx or any server, it ends.
stopped=()
while wait -n || true; do
    kill -0 "$nginx" 2> /dev/null || fail "nginx stopped (its log: $logs/nginx-error.log)."
    running=0
    for ((i = 0; i < count; i++)); do
        if kill -0 "${servers[i]}" 2> /dev/null; then
            running=$((running + 1))
        elif [ -z "${stopped[i]:-}" ]; then
            stopped[i]=1
            echo "run-servers: the server on port $((base + i)) stopped (its log: $logs/server-$((base + i)).log)." >&2
        fi
    done
    ((running > 0)) || fail "every server has stopped."
done
