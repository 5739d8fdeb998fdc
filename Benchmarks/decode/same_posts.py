#!/usr/bin/env python3
"""Checks that two JSON Lines outputs hold the same posts with the same fields, in the same order.

Usage: python3 same_posts.py SMASHTAG.jsonl BASELINE.jsonl

SMASHTAG.jsonl is `smashtag inspect FILE --format json`; BASELINE.jsonl is `baseline_orjson.py FILE --jsonl`.
Compared for every post: id, created (to the second), the author's screen name, name and picture, the text, every
mention (kind, keyword, start, end) and every medium (URL, aspect ratio). Fields only Smashtag writes (url,
language, expanded links…) are not compared. Prints one line saying how many posts agree; exits 1 if any differ.
"""

import sys
from datetime import datetime

import orjson


def _fields(post: dict) -> tuple:
    user = post["user"]
    created = datetime.fromisoformat(post["created"].replace("Z", "+00:00")).timestamp()
    return (
        post["id"], int(created), user["screenName"], user["name"], user.get("profileImageURL"), post["text"],
        [(m["kind"], m["keyword"], m["start"], m["end"]) for m in post["mentions"]],
        [(m["url"], round(m["aspectRatio"], 12)) for m in post["media"]],
    )


_NAMES = ("id", "created", "screenName", "name", "profileImageURL", "text", "mentions", "media")


def main() -> int:
    with open(sys.argv[1], "rb") as a, open(sys.argv[2], "rb") as b:
        ours = [_fields(orjson.loads(line)) for line in a]
        theirs = [_fields(orjson.loads(line)) for line in b]
    differing = {}
    for index, (x, y) in enumerate(zip(ours, theirs)):
        for name, u, v in zip(_NAMES, x, y):
            if u != v:
                differing.setdefault(name, []).append((index, u, v))
    if len(ours) == len(theirs) and not differing:
        print(f"same output: {len(ours)} posts, every compared field equal")
        return 0
    print(f"outputs differ: {len(ours)} posts against {len(theirs)}")
    for name, cases in differing.items():
        index, u, v = cases[0]
        print(f"  {name}: {len(cases)} posts, e.g. post {index + 1}: {u!r} against {v!r}")
    return 1


if __name__ == "__main__":
    sys.exit(main())
