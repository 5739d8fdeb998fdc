#!/usr/bin/env python3
"""A decoding corpus in several scripts (issue 54): X's own twarc2 pages with their texts in Japanese, Arabic,
Hebrew, Korean, Thai, Cyrillic, Devanagari and emoji.

Usage: make_scripts_corpus.py OUT [MIN_MB] [SEED]      (MIN_MB defaults to 100; MB = 10^6 bytes)

The pages are the real twarc2 fixtures `make_corpus.sh` reads (../shared/fixtures, not part of the project): every
member X sends is kept — users, media, metrics, annotations, referenced tweets —, and only each tweet's text (and a
long tweet's `note_tweet` text) is written again, from the non-Latin test strings of the twitter-text conformance suite
(public test data, read from the same folder) and emoji sequences (flags, skin tones, joined families), with hashtags
in the same scripts and mentions of the page's own users. Entities are placed as X places them: by code point, on the
HTML-escaped text (`&amp;`, `&lt;`, `&gt;`); the tweet's links (a photo's own link last) stay at its end. Lines are
written as twarc writes them (`json.dumps`: non-ASCII as `\\u` escapes). Each pass over the fixtures draws new texts,
so no line repeats.
"""
import json
import pathlib
import random
import re
import sys

import yaml

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT.parent / "shared" / "fixtures"
PAGES = FIXTURES / "twitter-v2" / "twarc-csv"
SUITE = FIXTURES / "twitter-text"
LEFT_OUT = {"streaming_output_with_error.jsonl", "counts.jsonl", "users.jsonl", "lists.jsonl"}
EMOJI = ["😂", "🇯🇵", "🇸🇦", "🇮🇱", "👍🏽", "👩‍💻", "👨‍👩‍👧‍👦", "❤️", "🔥", "🏳️‍🌈", "🙏🏿", "🎉", "🤖", "☕️", "🌸"]
URL_LIKE = re.compile(r"\S*(?:://|www\.)\S*|\S+\.(?:com|jp|net|org)\S*")
MARKS = re.compile(r"[#@＃＠$﹟]")


def strings(node):
    """Every `text` string of a conformance file, however deep."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "text" and isinstance(value, str):
                yield value
            else:
                yield from strings(value)
    elif isinstance(node, list):
        for value in node:
            yield from strings(value)


def material():
    """The suite's non-Latin pieces of text (no marks, no links) and its non-Latin hashtags."""
    pieces, tags = set(), set()
    for name in ("extract.yml", "autolink.yml", "validate.yml", "hit_highlighting.yml"):
        document = yaml.safe_load((SUITE / name).read_text(encoding="utf-8"))
        for text in strings(document):
            if all(ord(c) < 0x250 for c in text):
                continue
            plain = " ".join(MARKS.sub(" ", URL_LIKE.sub(" ", text)).split())
            # Not the length tests' runs of one character (140 cats): no one posts those.
            if 4 <= len(plain) <= 140 and len(set(plain)) * 4 >= len(plain):
                pieces.add(plain)
        for test in document.get("tests", {}).get("hashtags", []):
            expected = test.get("expected")
            if isinstance(expected, list):
                tags.update(t for t in expected if isinstance(t, str) and any(ord(c) >= 0x250 for c in t))
    if not pieces or not tags:
        sys.exit(f"make_scripts_corpus.py: no non-Latin test strings in {SUITE}")
    return sorted(pieces), sorted(tags)


def escaped(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


class Writer:
    """Makes texts and their entities from the material, seeded."""

    def __init__(self, seed, pieces, tags):
        self.random, self.pieces, self.tags = random.Random(seed), pieces, tags

    def text(self, handles, links, limit):
        """A text of about `limit` code points, then the links; its hashtags, mentions and links placed."""
        out, hashtags, mentions = "", [], []
        while len(out) < limit:
            roll = self.random.random()
            if out:
                out += " "
            if roll < 0.55:
                out += escaped(self.random.choice(self.pieces))
            elif roll < 0.75:
                tag = self.random.choice(self.tags)
                hashtags.append({"start": len(out), "end": len(out) + 1 + len(tag), "tag": tag})
                out += "#" + tag
            elif roll < 0.85 and handles:
                handle = self.random.choice(handles)
                mentions.append({"start": len(out), "end": len(out) + 1 + len(handle), "username": handle})
                out += "@" + handle
            else:
                out += "".join(self.random.choice(EMOJI) for _ in range(self.random.randint(1, 4)))
        urls = []
        for link in links:
            out += " "
            urls.append(dict(link, start=len(out), end=len(out) + len(link["url"])))
            out += link["url"]
        entities = {"hashtags": hashtags, "mentions": mentions}
        if urls:
            entities["urls"] = urls
        return out, entities

    def rewrite(self, tweet, handles):
        """The tweet with a new text; every other member as X sent it."""
        if not isinstance(tweet, dict) or "text" not in tweet:
            return tweet
        old = tweet.get("entities", {})
        links = [{k: v for k, v in link.items() if k not in ("start", "end")} for link in old.get("urls", [])]
        kept = {k: v for k, v in old.items() if k not in ("hashtags", "mentions", "cashtags", "urls", "annotations")}
        tweet["text"], entities = self.text(handles, links, self.random.randint(60, 250))
        tweet["entities"] = {**kept, **entities}
        if isinstance(tweet.get("note_tweet"), dict):
            text, entities = self.text(handles, [], self.random.randint(300, 900))
            tweet["note_tweet"] = {"text": text, "entities": entities}
        return tweet


def rewrite_line(item, writer):
    """A page (`data`, `includes`) or a flattened tweet, its tweets' texts written again."""
    users = item.get("includes", {}).get("users", []) if isinstance(item.get("includes"), dict) else []
    handles = [user["username"] for user in users if isinstance(user, dict) and "username" in user]
    if isinstance(item.get("data"), list):
        item["data"] = [writer.rewrite(tweet, handles) for tweet in item["data"]]
        includes = item.get("includes")
        if isinstance(includes, dict) and isinstance(includes.get("tweets"), list):
            includes["tweets"] = [writer.rewrite(tweet, handles) for tweet in includes["tweets"]]
        return item
    author = item.get("author", {})
    return writer.rewrite(item, [author["username"]] if isinstance(author, dict) and "username" in author else [])


def main():
    if len(sys.argv) < 2 or len(sys.argv) > 4:
        sys.exit(__doc__.split("\n\n")[1])
    out = pathlib.Path(sys.argv[1])
    minimum = float(sys.argv[2]) * 1_000_000 if len(sys.argv) > 2 else 100_000_000
    seed = int(sys.argv[3]) if len(sys.argv) > 3 else 54
    if not PAGES.is_dir() or not SUITE.is_dir():
        sys.exit(f"make_scripts_corpus.py: fixtures not found under {FIXTURES} (they are not part of the project)")
    files = [f for f in sorted(PAGES.glob("*.jsonl")) if f.name not in LEFT_OUT and "_compliance" not in f.name]
    lines = [line for f in files for line in f.read_text(encoding="utf-8").splitlines() if line.strip()]
    pieces, tags = material()
    writer, written, passes = Writer(seed, pieces, tags), 0, 0
    with out.open("w", encoding="utf-8") as sink:
        while written < minimum:
            passes += 1
            for line in lines:
                text = json.dumps(rewrite_line(json.loads(line), writer)) + "\n"
                sink.write(text)
                written += len(text)
    print(f"make_scripts_corpus.py: {len(files)} files, {len(pieces)} test strings, {len(tags)} hashtags, "
          f"{passes} passes -> {out} ({written} bytes)", file=sys.stderr)


if __name__ == "__main__":
    main()
