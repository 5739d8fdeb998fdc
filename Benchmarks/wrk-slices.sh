# What the Search page benchmarks that compare servers in one run share (sourced by Benchmarks/team/run.sh and
# Benchmarks/metrics/run.sh): the release build, `wrk -t2 -c32` for a few seconds at a time, and the mean of the
# slices. The servers take turns slice by slice, so a machine that slows down slows all of them alike.
command -v wrk > /dev/null || { apt-get update -qq && apt-get install -y -qq wrk > /dev/null; }
swift build -c release --scratch-path .build-release --product smashtag > /dev/null
BIN=${BIN:-$PWD/.build-release/release/smashtag}  # BIN=…: another build (a baseline) beside this one

rate() {  # requests/s and p99 (ms) for SECONDS on a URL, with an optional header; PATHS_FILE=…: its paths in turn
    local out seconds=$1 url=$2
    local options=(-t2 -c32 -d"${seconds}s" --latency)
    if [ -n "${PATHS_FILE:-}" ]; then options+=(-s Benchmarks/rotate.lua); fi
    if [ $# -gt 2 ]; then out=$(wrk "${options[@]}" -H "$3" "$url")
    else out=$(wrk "${options[@]}" "$url"); fi
    if echo "$out" | grep -q "Non-2xx"; then echo "error responses while measuring $url" >&2; exit 1; fi
    echo "$out" | awk '/Requests\/sec/ {r=$2}
        / 99%/ {p=$2; m=1; if (p ~ /us$/) m=0.001; else if (p ~ /ms$/) m=1; else if (p ~ /s$/) m=1000; sub(/[a-z]+$/, "", p); p=p*m}
        END {printf "%s %.2f", r, p}'
}

mean() { printf '%s\n' $1 | awk '{s+=$1} END {printf "%.0f", s/NR}'; }

machine() { echo "$(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(date -u +%F)"; }
