#!/usr/bin/env bash
# Decoding throughput, Swift beside the Python/orjson baseline in the same run (docs/PERFORMANCE.md).
# Usage: Benchmarks/decode/run.sh [MIN_MB] [REPEAT]
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
corpus="$(mktemp -d)/decode-corpus.jsonl"
trap 'rm -rf "$(dirname "$corpus")"' EXIT

python3 -c "import orjson" 2> /dev/null || python3 -m pip install -q orjson
(cd "$root" && swift build -c release --scratch-path .build-release --product smashtag > /dev/null)
"$here/make_corpus.sh" "$corpus" "${1:-20}" >&2
"$root/.build-release/release/smashtag" bench decode "$corpus" --repeat "${2:-10}"
python3 "$here/baseline_orjson.py" "$corpus" --repeat "${2:-10}"
