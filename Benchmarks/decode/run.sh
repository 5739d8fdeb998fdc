#!/usr/bin/env bash
# Decoding, Swift beside the Python/orjson baseline in the same run (docs/PERFORMANCE.md, issues 2, 12 and 39).
# Usage: Benchmarks/decode/run.sh [MIN_MB] [REPEAT]      (defaults: 100 MB, 10 passes / runs)
#   1. in process: `smashtag-bench decode` against `baseline_orjson.py`, decoding only, the median pass of REPEAT;
#   2. whole process: `smashtag inspect CORPUS --format json > FILE` against `baseline_orjson.py CORPUS --jsonl
#      > FILE`, in turns, REPEAT runs each (`whole_process.py`), then both outputs compared (`same_posts.py`);
#   3. the worst single line: 3 MB with 2,000 entities (`make_entity_line.py`).
# BEFORE=PATH: another build of smashtag (the release before) timed in the same turns.
# CORPUS=scripts: the same pages with their texts in several scripts (`make_scripts_corpus.py`, issue 54) instead of
# the fixtures' own texts, mostly English.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
corpus="$work/decode-corpus.jsonl"
repeat="${2:-10}"
smashtag="$root/.build-release/release/smashtag"

python3 -c "import orjson" 2> /dev/null || python3 -m pip install -q orjson
python3 -c "import yaml" 2> /dev/null || python3 -m pip install -q pyyaml
(cd "$root" && for product in smashtag smashtag-bench; do swift build -c release --scratch-path .build-release --product "$product" > /dev/null; done)
if [ "${CORPUS:-fixtures}" = scripts ]; then
    python3 "$here/make_scripts_corpus.py" "$corpus" "${1:-100}"
else
    "$here/make_corpus.sh" "$corpus" "${1:-100}" >&2
fi
echo "cores: $(nproc); load before: $(cut -d ' ' -f 1-3 /proc/loadavg)"

"$root/.build-release/release/smashtag-bench" decode "$corpus" --repeat "$repeat"
python3 "$here/baseline_orjson.py" "$corpus" --repeat "$repeat"

python3 "$here/whole_process.py" "$repeat" "$work/out.jsonl" \
    "smashtag-inspect=$smashtag inspect $corpus --format json" \
    "python-orjson=python3 $here/baseline_orjson.py $corpus --jsonl" \
    ${BEFORE:+"smashtag-before=$BEFORE inspect $corpus --format json"}
"$smashtag" inspect "$corpus" --format json > "$work/smashtag.jsonl" 2> /dev/null
python3 "$here/baseline_orjson.py" "$corpus" --jsonl > "$work/python.jsonl"
python3 "$here/same_posts.py" "$work/smashtag.jsonl" "$work/python.jsonl"
rm -f "$work/smashtag.jsonl" "$work/python.jsonl"

# One 3 MB line with 2,000 entities, placed, misplaced and absent: linear, each well under a second (issue 12).
python3 "$here/make_entity_line.py" "$work"
for shape in placed misplaced absent; do
    start=$(date +%s.%N)
    "$smashtag" inspect "$work/entities-$shape.json" --format json > /dev/null
    echo "3 MB line, 2,000 entities $shape: $(echo "$(date +%s.%N) - $start" | bc | xargs printf '%.3f') s"
done
echo "load after: $(cut -d ' ' -f 1-3 /proc/loadavg)"
