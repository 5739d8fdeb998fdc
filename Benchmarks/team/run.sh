#!/usr/bin/env bash
# Issue 49's figure for docs/PERFORMANCE.md: the Search page signed in (a session cookie, and a bearer token) beside
# the same page on the owner's Smashtag with no one added, in one run. Two release servers on copies of one demo
# corpus, the one with people added; `wrk -t2 -c32` on the same repeated `#tag` query, the three taking turns in
# SLICES slices each (requests/s is the slices' mean, p99 the worst slice's); a static file of the signed-in page's
# bytes from the same server takes its turn too (issue 54: the page ÷ a static file, signed in), and so does the page
# under a different query each request (`#a OR #b`, `#a -#b` over the corpus's 150 most used hashtags, as
# Benchmarks/web/run.sh asks them), anonymous and signed in: each one a new term in the caller's Recents.
# Usage: Benchmarks/team/run.sh [POSTS] [SECONDS] [SLICES]   (default 200,000 posts, 15 s, 5 slices)
set -euo pipefail
cd "$(dirname "$0")/../.."
. Benchmarks/wrk-slices.sh
POSTS=${1:-200000}
SECONDS_EACH=${2:-15}
SLICES=${3:-5}
WORK=$(mktemp -d)
servers=()
PUBLIC=$(dirname "$BIN")/Smashtag_SmashtagWeb.resources/Public
STATIC=bench-team-search.html  # the signed-in page's bytes, served as a static file by the same server (the ceiling)
trap 'kill "${servers[@]}" 2> /dev/null; rm -rf "$WORK" "$PUBLIC/$STATIC"' EXIT
"$BIN" corpus generate --tweets "$POSTS" --data-dir "$WORK/owner" > /dev/null
cp -r "$WORK/owner" "$WORK/team"
echo "a password for the benchmark" | "$BIN" user add bench --role researcher --data-dir "$WORK/team" > /dev/null
TOKEN=$("$BIN" token create bench --role viewer --data-dir "$WORK/team" | tail -1)

start() {  # data directory, port
    "$BIN" serve --port "$2" --data-dir "$1" --log-level warning > /dev/null &
    servers+=($!)
    until curl -s -o /dev/null "http://127.0.0.1:$2/signin"; do sleep 0.5; done
}
start "$WORK/owner" 18081
start "$WORK/team" 18082
OWNER=http://127.0.0.1:18081 TEAM=http://127.0.0.1:18082

# Signing in as a browser does: the page's CSRF cookie and token, then the form.
JAR=$WORK/cookies
TOKEN_FIELD=$(curl -s -c "$JAR" "$TEAM/signin" | sed -n 's/.*name="csrf" value="\([^"]*\)".*/\1/p' | head -1)
SIGN_IN_MS=$(curl -s -o /dev/null -w '%{time_total}' -b "$JAR" -c "$JAR" -H "Origin: $TEAM" \
    --data-urlencode "csrf=$TOKEN_FIELD" --data-urlencode "name=bench" \
    --data-urlencode "password=a password for the benchmark" "$TEAM/signin" | awk '{printf "%.0f", $1 * 1000}')
SESSION=$(awk '$6 == "smashtag_session" {print $7}' "$JAR")
[ -n "$SESSION" ] || { echo "could not sign in" >&2; exit 1; }

TAG=%23stanford
PAGE=/search?q=$TAG
[ "$(curl -s -o /dev/null -w '%{http_code}' "$OWNER$PAGE")" = 200 ] || { echo "the owner's page is not 200" >&2; exit 1; }
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "Cookie: smashtag_session=$SESSION" "$TEAM$PAGE")" = 200 ] ||
    { echo "the signed-in page is not 200" >&2; exit 1; }
[ "$(curl -s -o /dev/null -w '%{http_code}' -H "Authorization: Bearer $TOKEN" "$TEAM$PAGE")" = 200 ] ||
    { echo "the token's page is not 200" >&2; exit 1; }
[ "$(curl -s -o /dev/null -w '%{http_code}' "$TEAM$PAGE")" = 303 ] || { echo "a stranger is not sent to sign in" >&2; exit 1; }
curl -s -H "Cookie: smashtag_session=$SESSION" "$TEAM$PAGE" > "$PUBLIC/$STATIC"
[ "$(curl -s -o /dev/null -w '%{http_code}' "$TEAM/$STATIC")" = 200 ] || { echo "the static copy is not 200" >&2; exit 1; }

python3 Benchmarks/corpus_terms.py "$WORK/owner/corpus.sqlite" --search-paths 150 > "$WORK/queries.txt"

slice=$(( SECONDS_EACH / SLICES > 1 ? SECONDS_EACH / SLICES : 2 ))
declare -A rates p99s
for _ in $(seq "$SLICES"); do
    for who in owner session token static owner-new session-new; do
        case $who in
        static) read -r r p <<< "$(rate "$slice" "$TEAM/$STATIC")" ;;
        owner) read -r r p <<< "$(rate "$slice" "$OWNER$PAGE")" ;;
        session) read -r r p <<< "$(rate "$slice" "$TEAM$PAGE" "Cookie: smashtag_session=$SESSION")" ;;
        token) read -r r p <<< "$(rate "$slice" "$TEAM$PAGE" "Authorization: Bearer $TOKEN")" ;;
        owner-new) read -r r p <<< "$(PATHS_FILE=$WORK/queries.txt rate "$slice" "$OWNER/")" ;;
        session-new)
            read -r r p <<< "$(PATHS_FILE=$WORK/queries.txt rate "$slice" "$TEAM/" "Cookie: smashtag_session=$SESSION")" ;;
        esac
        rates[$who]="${rates[$who]:-} $r"
        p99s[$who]=$(echo "if ($p > ${p99s[$who]:-0}) $p else ${p99s[$who]:-0}" | bc -l)
    done
done
owner=$(mean "${rates[owner]}")
echo "## $(machine), $POSTS posts, ${SECONDS_EACH}s each in $SLICES slices"
static=$(mean "${rates[static]}")
echo "| Search page, repeated $TAG | requests/s | p99 | ÷ no one added | ÷ static file ($static requests/s) |"
echo "|---|---:|---:|---:|---:|"
for who in owner session token; do
    label=$(case $who in owner) echo "no one added (today's, anonymous)";; session) echo "signed in (session cookie)";;
        token) echo "a token (Authorization: Bearer)";; esac)
    r=$(mean "${rates[$who]}")
    printf "| %s | %s | %.2f ms | **%.3f** | **%.3f** |\n" "$label" "$r" "${p99s[$who]}" "$(echo "$r / $owner" | bc -l)" \
        "$(echo "$r / $static" | bc -l)"
done
for who in owner-new session-new; do
    label=$(case $who in owner-new) echo "a different query each request, no one added";;
        session-new) echo "a different query each request, signed in";; esac)
    r=$(mean "${rates[$who]}")
    printf "| %s | %s | %.2f ms | **%.3f** | **%.3f** |\n" "$label" "$r" "${p99s[$who]}" \
        "$(echo "$r / $(mean "${rates[owner-new]}")" | bc -l)" "$(echo "$r / $static" | bc -l)"
done
echo
echo "Signing in (bcrypt, cost 12, on NIO's thread pool): $SIGN_IN_MS ms for the form's POST"
