#!/usr/bin/env bash
# Decoding throughput, Swift beside the Python/orjson baseline in the same run (docs/PERFORMANCE.md).
# Usage: Benchmarks/decode/run.sh [MIN_MB] [REPEAT]
# Then the worst single line: 3 MB with 2,000 entities (make_entity_line.py).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
corpus="$(mktemp -d)/decode-corpus.jsonl"
trap 'rm -rf "$(dirname "$corpus")"' EXIT

python3 -c "import orjson" 2> /dev/null || python3 -m pip install -q orjson
(cd "$root" && for product in smashtag smashtag-bench; do swift build -c release --scratch-path .build-release --product "$product" > /dev/null; done)
"$here/make_corpus.sh" "$corpus" "${1:-20}" >&2
"$root/.build-release/release/smashtag-bench" decode "$corpus" --repeat "${2:-10}"
python3 "$here/baseline_orjson.py" "$corpus" --repeat "${2:-10}"

# One 3 MB line with 2,000 entities, placed, misplaced and absent: linear, each well under a second (issue 12).
python3 "$here/make_entity_line.py" "$(dirname "$corpus")"
for shape in placed misplaced absent; do
    start=$(date +%s.%N)
    "$root/.build-release/release/smashtag" inspect "$(dirname "$corpus")/entities-$shape.json" --format json > /dev/null
    echo "3 MB line, 2,000 entities $shape: $(echo "$(date +%s.%N) - $start" | bc | xargs printf '%.3f') s"
done
