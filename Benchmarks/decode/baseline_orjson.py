#!/usr/bin/env python3
"""Baseline for the decoding benchmark: twarc2 JSONL -> tweets, with orjson.

Usage: python3 baseline_orjson.py FILE [--repeat N] [--dump OUT.jsonl]
       python3 baseline_orjson.py FILE --jsonl > OUT.jsonl

Each non-empty line is either
  (a) a twarc2 / X API v2 page: {"data": [...], "includes": {"users", "media", "tweets"}, ..., "__twarc": ...}
      ("data" may also be a single tweet object, as in streaming output), or
  (b) a `twarc2 flatten` line: one tweet with "author", "attachments.media" and merged "referenced_tweets".
Lines that hold no tweets (counts, users, lists, compliance) yield nothing.

For every tweet it extracts what the Swift decoder produces: id, created_at (aware UTC datetime), author
screen name / name / profile image URL, text (unescaped, a long post's from `note_tweet`, without the trailing
links to its own media), hashtags / user mentions / URLs with code-point offsets into the unescaped text, and
media (URL, aspect ratio). A retweet's content (author, text, entities, media) comes from the original tweet when
it is present (includes.tweets, or the merged referenced tweet), as Smashtag shows a retweet.

One pass = read the file + parse every line + extract every tweet. The pass runs N times; the printed
"seconds" is the median seconds per pass (best and total are printed too).

With --jsonl it is the whole-process baseline of `smashtag inspect FILE --format json` instead: one pass, each
tweet written to stdout as a JSON line with the fields above under the keys `inspect` writes (`created` as
ISO-8601, `user`, `mentions` with `kind`, `media`), and nothing else printed. Time it from outside.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from dataclasses import dataclass
from datetime import datetime

import orjson


@dataclass(slots=True)
class Mention:
    keyword: str  # as shown in the unescaped text, e.g. "#Brexit", "@someone", "https://t.co/..."
    start: int  # code-point offsets into Tweet.text (the unescaped text), end exclusive
    end: int


@dataclass(slots=True)
class Media:
    url: str
    aspect_ratio: float


@dataclass(slots=True)
class Tweet:
    id: str
    created: datetime
    screen_name: str
    name: str
    profile_image_url: str | None
    text: str
    hashtags: list[Mention]
    user_mentions: list[Mention]
    urls: list[Mention]
    media: list[Media]


_EMPTY: dict = {}
_NO_USER: dict = {"username": "unknown", "name": "Unknown account"}
_MEDIA_LINK_HOSTS = ("pic.twitter.com/", "pic.x.com/")


def _is_media_link(url: dict) -> bool:
    return "media_key" in url or url.get("display_url", "").startswith(_MEDIA_LINK_HOSTS)


def _trimmed(text: str, links: list[str]) -> str:
    """Without trailing whitespace and the trailing links to the tweet's own media, which no client shows."""
    end = len(text.rstrip())
    removed = True
    while removed:
        removed = False
        for link in links:
            if link and len(link) <= end and text[end - len(link):end] == link:
                end = len(text[:end - len(link)].rstrip())
                removed = True
    return text[:end]


def _unescape(s: str) -> str:
    # Twitter escapes only these three; &amp; last so "&amp;lt;" becomes "&lt;", not "<".
    if "&" not in s:
        return s
    return s.replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&")


def _entities(text: str, entities: dict) -> tuple[str, list[Mention], list[Mention], list[Mention]]:
    """Validate entities against the escaped text, then unescape the text piecewise and re-offset them."""
    urls = entities.get("urls", ())
    links = [u["url"] for u in urls if _is_media_link(u) and "url" in u]
    if links or "&" in text or entities.get("hashtags") or entities.get("mentions") or len(links) < len(urls):
        text = _trimmed(text, links)
    found: list[tuple[int, int, int]] = []  # (start, end, kind) kind: 0 hashtag, 1 mention, 2 url
    for e in entities.get("hashtags", ()):
        s, t = e["start"], e["end"]
        if text[s:t].lower() == "#" + e["tag"].lower():
            found.append((s, t, 0))
    for e in entities.get("mentions", ()):
        s, t = e["start"], e["end"]
        if text[s:t].lower() == "@" + e["username"].lower():
            found.append((s, t, 1))
    for e in urls:
        if _is_media_link(e):  # the trailing link to attached media is not a URL mention
            continue
        s, t = e["start"], e["end"]
        if text[s:t].lower() == e["url"].lower():
            found.append((s, t, 2))

    lists: tuple[list[Mention], list[Mention], list[Mention]] = ([], [], [])
    if not found:
        return _unescape(text), lists[0], lists[1], lists[2]
    found.sort()  # by start; an entity overlapping an earlier one (e.g. a repeated URL entity) is dropped

    if "&" not in text:  # common case: the offsets already index the delivered text
        pos = 0
        for s, t, kind in found:
            if s >= pos:
                lists[kind].append(Mention(text[s:t], s, t))
                pos = t
        return text, lists[0], lists[1], lists[2]

    # Slice first, then unescape the pieces; offsets are lengths of the unescaped pieces.
    pieces: list[str] = []
    pos = 0  # in the escaped text
    out = 0  # in the unescaped text
    for s, t, kind in found:
        if s < pos:
            continue
        gap = _unescape(text[pos:s])
        pieces.append(gap)
        out += len(gap)
        keyword = _unescape(text[s:t])
        pieces.append(keyword)
        lists[kind].append(Mention(keyword, out, out + len(keyword)))
        out += len(keyword)
        pos = t
    pieces.append(_unescape(text[pos:]))
    return "".join(pieces), lists[0], lists[1], lists[2]


def _media(media_list, into: list[Media]) -> None:
    for m in media_list:
        url = m.get("url") or m.get("preview_image_url")
        if not url:
            continue  # e.g. flattened referenced tweets carry {} for media missing from includes
        w, h = m.get("width"), m.get("height")
        into.append(Media(url, w / h if w and h else 0.0))


def _retweeted_id(tweet: dict) -> str | None:
    for r in tweet.get("referenced_tweets", ()):
        if r.get("type") == "retweeted":
            return r.get("id")
    return None


def _page_tweets(page: dict, out: list[Tweet]) -> None:
    data = page.get("data")
    if isinstance(data, dict):
        data = (data,)
    elif not isinstance(data, list):
        return
    includes = page.get("includes") or _EMPTY
    users = {u["id"]: u for u in includes.get("users", ())}
    media = {m["media_key"]: m for m in includes.get("media", ())}
    referenced = None  # built on first retweet

    for t in data:
        text = t.get("text")
        if text is None:  # not a tweet (user, list, count, ...)
            continue
        content = t
        rt_id = _retweeted_id(t)
        if rt_id is not None:
            if referenced is None:
                referenced = {r["id"]: r for r in includes.get("tweets", ())}
            original = referenced.get(rt_id)
            if original is not None and "text" in original:
                content = original
        source = _long_post(content)
        text, hashtags, mentions, urls = _entities(source["text"], source.get("entities") or _EMPTY)
        tweet_media: list[Media] = []
        keys = (content.get("attachments") or _EMPTY).get("media_keys")
        if keys:
            _media((media[k] for k in keys if k in media), tweet_media)
        user = users.get(content.get("author_id")) or _NO_USER
        out.append(Tweet(
            t["id"], datetime.fromisoformat(t["created_at"]),
            user["username"], user["name"], user.get("profile_image_url") or None,
            text, hashtags, mentions, urls, tweet_media,
        ))


def _long_post(tweet: dict) -> dict:
    """A long post's whole text and entities are in `note_tweet`; `text` holds only its first 280 characters."""
    note = tweet.get("note_tweet")
    return note if note and "text" in note else tweet


def _flat_tweet(t: dict, out: list[Tweet]) -> None:
    content = t
    if "referenced_tweets" in t:
        for r in t["referenced_tweets"]:
            if r.get("type") == "retweeted" and "text" in r:
                content = r
                break
    source = _long_post(content)
    text, hashtags, mentions, urls = _entities(source["text"], source.get("entities") or _EMPTY)
    tweet_media: list[Media] = []
    media = (content.get("attachments") or _EMPTY).get("media")
    if media:
        _media(media, tweet_media)
    user = content.get("author") or _NO_USER
    out.append(Tweet(
        t["id"], datetime.fromisoformat(t["created_at"]),
        user["username"], user["name"], user.get("profile_image_url") or None,
        text, hashtags, mentions, urls, tweet_media,
    ))


def decode_file(path: str) -> tuple[list[Tweet], int]:
    with open(path, "rb") as f:
        data = f.read()
    tweets: list[Tweet] = []
    loads = orjson.loads
    for line in data.splitlines():
        if not line or line.isspace():
            continue
        obj = loads(line)
        if not isinstance(obj, dict):
            continue
        if "data" in obj:
            _page_tweets(obj, tweets)
        elif "text" in obj and "id" in obj:
            _flat_tweet(obj, tweets)
    return tweets, len(data)


def _dump(tweets: list[Tweet], path: str) -> None:
    def mentions(ms: list[Mention]) -> list:
        return [[m.keyword, m.start, m.end] for m in ms]

    with open(path, "wb") as f:
        for t in tweets:
            f.write(orjson.dumps({
                "id": t.id, "created": t.created.timestamp(), "screenName": t.screen_name, "name": t.name,
                "profileImageURL": t.profile_image_url, "text": t.text,
                "hashtags": mentions(t.hashtags), "userMentions": mentions(t.user_mentions),
                "urls": mentions(t.urls), "media": [[m.url, m.aspect_ratio] for m in t.media],
            }) + b"\n")


_KINDS = ("hashtag", "user", "url")


def _write_jsonl(path: str) -> None:
    """Decodes and writes line by line, so output starts at once and memory holds one page at a time."""
    out = sys.stdout.buffer
    dumps = orjson.dumps
    newline = orjson.OPT_APPEND_NEWLINE
    with open(path, "rb") as f:
        for line in f:
            if not line or line.isspace():
                continue
            obj = orjson.loads(line)
            if not isinstance(obj, dict):
                continue
            tweets: list[Tweet] = []
            if "data" in obj:
                _page_tweets(obj, tweets)
            elif "text" in obj and "id" in obj:
                _flat_tweet(obj, tweets)
            out.write(b"".join(dumps(_public(t), option=newline) for t in tweets))


def _public(t: Tweet) -> dict:
    mentions = [
        {"end": m.end, "keyword": m.keyword, "kind": _KINDS[kind], "start": m.start}
        for kind, ms in enumerate((t.hashtags, t.user_mentions, t.urls))
        for m in ms
    ]
    mentions.sort(key=lambda m: m["start"])
    user = {"name": t.name, "screenName": t.screen_name}
    if t.profile_image_url is not None:
        user["profileImageURL"] = t.profile_image_url
    return {
        "created": t.created, "id": t.id, "media": [{"aspectRatio": m.aspect_ratio, "url": m.url} for m in t.media],
        "mentions": mentions, "text": t.text, "user": user,
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("file")
    ap.add_argument("--repeat", type=int, default=5, help="passes to time (default 5)")
    ap.add_argument("--dump", metavar="OUT", help="also write the extracted tweets as JSONL (not timed)")
    ap.add_argument("--jsonl", action="store_true", help="write every tweet to stdout as JSON Lines, nothing else")
    args = ap.parse_args()
    if args.jsonl:
        _write_jsonl(args.file)
        return
    if args.repeat < 1:
        ap.error("--repeat must be at least 1")

    times: list[float] = []
    tweets: list[Tweet] = []
    size = 0
    for _ in range(args.repeat):
        tweets = []  # drop the previous pass's result outside the timed region
        start = time.perf_counter()
        tweets, size = decode_file(args.file)
        times.append(time.perf_counter() - start)

    median = statistics.median(times)
    print(orjson.dumps({
        "impl": "python-orjson",
        "tweets": len(tweets),
        "bytes": size,
        "seconds": median,
        "tweetsPerSecond": len(tweets) / median,
        "megabytesPerSecond": size / 1e6 / median,
        "repeat": args.repeat,
        "bestSeconds": min(times),
        "totalSeconds": sum(times),
    }).decode())
    if args.dump:
        _dump(tweets, args.dump)


if __name__ == "__main__":
    sys.exit(main())
