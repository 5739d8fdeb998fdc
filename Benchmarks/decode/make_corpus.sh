#!/usr/bin/env bash
# Build a decoding-benchmark corpus from the real twarc2 fixtures.
#
# Usage: make_corpus.sh OUT [MIN_MB]      (MIN_MB defaults to 20; MB = 10^6 bytes)
#
# Concatenates every *.jsonl under <repo root>/../shared/fixtures/twitter-v2/twarc-csv that holds tweets
# (v2 pages or `twarc2 flatten` lines), in name order, and repeats the whole set until OUT is at least MIN_MB.
# Left out: streaming_output_with_error.jsonl (broken last line on purpose) and the files with no tweets
# (counts, users, lists, *_compliance). Every line written ends with a newline.
set -euo pipefail

if [[ $# -lt 1 || $# -gt 2 ]]; then
    echo "usage: $0 OUT [MIN_MB]" >&2
    exit 2
fi
out=$1
min_mb=${2:-20}
if ! [[ $min_mb =~ ^[0-9]+([.][0-9]+)?$ ]]; then
    echo "make_corpus.sh: MIN_MB must be a number, got '$min_mb'" >&2
    exit 2
fi

script_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
repo_root=$(cd "$script_dir/../.." && pwd)
fixtures="$(dirname "$repo_root")/shared/fixtures/twitter-v2/twarc-csv"
if [[ ! -d $fixtures ]]; then
    echo "make_corpus.sh: fixtures folder not found: $fixtures" >&2
    echo "  (the real twarc2 data lives in ../shared/fixtures next to the repo; it is not part of the project)" >&2
    exit 1
fi

files=()
shopt -s nullglob
for f in "$fixtures"/*.jsonl; do
    case $(basename "$f") in
        streaming_output_with_error.jsonl) ;;        # broken last line on purpose
        counts.jsonl | users.jsonl | lists.jsonl) ;;  # no tweets in data
        *_compliance.jsonl) ;;                        # compliance events, no tweets
        *) files+=("$f") ;;
    esac
done
if [[ ${#files[@]} -eq 0 ]]; then
    echo "make_corpus.sh: no tweet files (*.jsonl) in $fixtures" >&2
    exit 1
fi

# One pass of all files byte for byte, adding a newline after any file that lacks a final one; then repeat it.
tmp=$(mktemp "${TMPDIR:-/tmp}/decode-corpus.XXXXXX")
trap 'rm -f "$tmp"' EXIT
for f in "${files[@]}"; do
    cat "$f" >>"$tmp"
    if [[ -s $f && $(tail -c 1 "$f" | od -An -tx1 | tr -d ' \n') != 0a ]]; then
        printf '\n' >>"$tmp"
    fi
done
pass_bytes=$(wc -c <"$tmp")
if [[ $pass_bytes -eq 0 ]]; then
    echo "make_corpus.sh: the fixture files are empty" >&2
    exit 1
fi
min_bytes=$(awk -v mb="$min_mb" 'BEGIN { printf "%.0f", mb * 1000000 }')
reps=$(((min_bytes + pass_bytes - 1) / pass_bytes))
((reps >= 1)) || reps=1

: >"$out"
for ((i = 0; i < reps; i++)); do
    cat "$tmp" >>"$out"
done

total=$(wc -c <"$out")
echo "make_corpus.sh: ${#files[@]} files, $pass_bytes bytes per pass, $reps passes -> $out ($total bytes)" >&2
