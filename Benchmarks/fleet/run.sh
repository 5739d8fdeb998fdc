#!/usr/bin/env bash
# The fleet figures of docs/PERFORMANCE.md (issue 53), release build: ten Mastodon stand-ins on 127.0.0.1 that answer
# after fixed delays (20, 30, … 110 ms) and share posts under ids of their own; REQUESTS first pages of 40 from all
# ten asked as one, each beside the slowest server asked alone (the baseline, same run); then MERGES merges of ten
# answers of 40 posts each, every post on two servers, with deduplication and the positions of the page's ends.
# Usage: Benchmarks/fleet/run.sh [REQUESTS] [MERGES]   (defaults 300 and 5000)
set -euo pipefail
cd "$(dirname "$0")/../.."
swift build -c release --scratch-path .build-release --product smashtag-bench > /dev/null
.build-release/release/smashtag-bench fleet --requests "${1:-300}" --merges "${2:-5000}" 2> /dev/null
