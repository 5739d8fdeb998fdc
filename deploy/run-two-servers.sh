#!/usr/bin/env bash
# Two Smashtag servers on one PostgreSQL behind nginx on this machine: the sample deployment of the README.
# Usage: SMASHTAG_DATABASE_URL=postgresql://USER@HOST:PORT/DB deploy/run-two-servers.sh [DATA_DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
: "${SMASHTAG_DATABASE_URL:?set SMASHTAG_DATABASE_URL to the PostgreSQL database the servers share}"
export SMASHTAG_DATABASE_URL
DATA=${1:-${SMASHTAG_HOME:-$HOME/.local/share/smashtag}}
command -v nginx > /dev/null || { apt-get update -qq && apt-get install -y -qq nginx > /dev/null; }
swift build -c release --product smashtag
BIN=.build/release/smashtag
"$BIN" corpus generate --data-dir "$DATA" 2> /dev/null || true   # the demo corpus, once, before the servers share it
"$BIN" serve --port 8081 --data-dir "$DATA" & first=$!
"$BIN" serve --port 8082 --data-dir "$DATA" & second=$!
nginx -c "$PWD/deploy/nginx.conf" -p "$PWD/deploy" -g 'daemon off;' & proxy=$!
trap 'kill $first $second $proxy 2> /dev/null' EXIT INT TERM
echo "Smashtag is running at http://127.0.0.1:8080/ (two servers behind nginx) — Ctrl-C stops it."
wait
