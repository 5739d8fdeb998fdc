#!/usr/bin/env python3
"""Oracle: decode every fixture in this folder and write expected.json.

This is an independent, plain-Python (json module only) implementation of the
rules Smashtag's Swift decoder must follow. It does not import make_fixtures.py.

Output: { "<path relative to Fixtures>": {"tweets": [tweet...], "errorLines": [n...]} }

Rules implemented (summary; see the functions below):
  * Content: v1.1 retweets take text/entities/media/user from retweeted_status, keep the
    outer id/created and add retweetedBy = outer user. Text: extended_tweet.full_text >
    full_text > text, entities from the same level. v2 retweets ("retweeted") take the
    original from includes.tweets (or the flattened referenced tweet); original missing ->
    own text. Activity Streams: long_object.body > body; verb "share" -> content of `object`.
    Archives: user from account.js next to tweets.js, else "unknown".
  * Mentions: hashtags, user mentions, urls (never cashtags/symbols, media, or v2 urls with
    media_key). Offsets are code points in the HTML-escaped text; consistent entities stay,
    inconsistent ones are relocated to the nearest free, word-bounded occurrence of their
    token, or dropped.
  * A trailing media t.co link is removed; then only &amp; &lt; &gt; are unescaped, piece
    by piece, and offsets are recomputed on the final text.
  * Language: the shown content's `lang` (v1.1, v2; the outer tweet's when it has none),
    Activity Streams' `twitter_lang` (else `gnip.language.value`); "und" is none.
"""
import json
import os
import re
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))
NOT_INPUTS = {"make_fixtures.py", "make_expected.py", "expected.json", ".keep", "account.js"}


# ------------------------------------------------------------------ reading files

def read_documents(path):
    """Return (documents, errorLines, archive_kind) for one fixture file."""
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    body = raw.lstrip("\ufeff")
    if body.lstrip().startswith("window.YTD."):
        # "window.YTD.<name>.part0 = [ ... ]"
        return [json.loads(body[body.index("=") + 1:])], [], True
    try:
        return [json.loads(body)], [], False
    except ValueError:
        pass
    lines = body.split("\n")
    first = next((l for l in lines if l.strip()), "")
    try:
        json.loads(first)
        is_jsonl = True
    except ValueError:
        is_jsonl = False
    if is_jsonl:
        docs, errors = [], []
        for number, line in enumerate(lines, 1):
            if not line.strip():
                continue
            try:
                docs.append(json.loads(line))
            except ValueError:
                errors.append(number)
        return docs, errors, False
    # Several JSON values back to back (Twitter's samples)
    decoder, i, docs = json.JSONDecoder(), 0, []
    while True:
        while i < len(body) and body[i].isspace():
            i += 1
        if i >= len(body):
            break
        value, i = decoder.raw_decode(body, i)
        docs.append(value)
    return docs, [], False


def archive_account(tweets_path):
    path = os.path.join(os.path.dirname(tweets_path), "account.js")
    if not os.path.exists(path):
        return {"screenName": "unknown", "name": "Unknown account"}
    with open(path, encoding="utf-8") as f:
        raw = f.read()
    entries = json.loads(raw[raw.index("=") + 1:])
    acct = entries[0]["account"]
    return {"screenName": acct["username"], "name": acct["accountDisplayName"]}


# ------------------------------------------------------------------ small helpers

def num(x):
    return int(x) if isinstance(x, str) else x


def v1_date(s):
    dt = datetime.strptime(s, "%a %b %d %H:%M:%S %z %Y")
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def iso_date(s):
    m = re.match(r"^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2}:\d{2})(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})$", s)
    assert m, s
    tz = "+00:00" if m.group(3) == "Z" else m.group(3)
    dt = datetime.fromisoformat(m.group(1) + "T" + m.group(2) + tz)
    return dt.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def language(*candidates):
    """The first language given; X's "und" (undetermined) and "" are none."""
    lang = next((c for c in candidates if isinstance(c, str) and c), None)
    return None if lang == "und" else lang


def make_user(screen_name, name, image):
    u = {"screenName": screen_name, "name": name}
    if image:
        u["profileImageURL"] = image
    return u


def unescape(s):
    return re.sub(r"&(amp|lt|gt);", lambda m: {"amp": "&", "lt": "<", "gt": ">"}[m.group(1)], s)


def is_word(c):
    return c.isalnum() or c == "_"


def fold(s):
    """Comparison form: fullwidth ＃/＠ count as #/@, case-insensitive."""
    if s[:1] == "\uff03":
        s = "#" + s[1:]
    elif s[:1] == "\uff20":
        s = "@" + s[1:]
    return s.lower()


# ------------------------------------------------------------------ the text rules

class Entity:
    def __init__(self, kind, token, start, end, expanded=None, display=None):
        self.kind, self.token, self.expanded, self.display = kind, token, expanded, display
        self.start, self.end = num(start), num(end)


def overlaps(a0, a1, b0, b1):
    return a0 < b1 and b0 < a1


def resolve(escaped, entities, media_urls):
    """Validate/relocate entities, drop the trailing media link, unescape. -> (text, mentions)"""
    n = len(escaped)

    def consistent(e):
        return (isinstance(e.start, int) and isinstance(e.end, int) and 0 <= e.start < e.end <= n
                and e.token != "" and fold(escaped[e.start:e.end]) == fold(e.token))

    kept = []  # (start, end, entity)
    good = [e for e in entities if consistent(e)]
    bad = [e for e in entities if not consistent(e)]
    for e in sorted(good, key=lambda e: e.start):
        if not any(overlaps(e.start, e.end, k0, k1) for k0, k1, _ in kept):
            kept.append((e.start, e.end, e))
    for e in sorted(bad, key=lambda e: e.start if isinstance(e.start, int) else 0):
        L, best = len(e.token), None
        if L == 0:
            continue
        for i in range(0, n - L + 1):
            if fold(escaped[i:i + L]) != fold(e.token):
                continue
            if i > 0 and is_word(escaped[i - 1]):
                continue
            if e.kind in ("hashtag", "user") and i + L < n and is_word(escaped[i + L]):
                continue
            if any(overlaps(i, i + L, k0, k1) for k0, k1, _ in kept):
                continue
            d = abs(i - e.start) if isinstance(e.start, int) else i
            if best is None or d < best[0]:  # ties: the earlier occurrence
                best = (d, i)
        if best is not None:
            kept.append((best[1], best[1] + L, e))

    # trailing media link
    text = escaped
    trimmed = text.rstrip()
    for u in media_urls:
        if u and trimmed.endswith(u):
            text = trimmed[:len(trimmed) - len(u)].rstrip()
            kept = [k for k in kept if k[1] <= len(text)]
            break

    # unescape piece by piece, recomputing offsets in the final text
    kept.sort(key=lambda k: k[0])
    pieces, mentions, cursor, pos = [], [], 0, 0
    for s, e, ent in kept:
        before = unescape(text[cursor:s])
        pieces.append(before)
        pos += len(before)
        inner = unescape(text[s:e])
        pieces.append(inner)
        m = {"kind": ent.kind, "keyword": inner, "start": pos, "end": pos + len(inner)}
        if ent.kind == "url":
            m["expandedURL"] = ent.expanded or ent.token
            if ent.display:
                m["display"] = ent.display
        mentions.append(m)
        pos += len(inner)
        cursor = e
    pieces.append(unescape(text[cursor:]))
    final = "".join(pieces)
    for m in mentions:
        assert final[m["start"]:m["end"]] == m["keyword"]
    return final, mentions


def display_start(final, mentions, is_reply, limit):
    """Where a reply's text begins after its leading @names (and the spaces after them); 0 if it is all names."""
    if not is_reply:
        return 0
    end = 0
    for m in mentions:
        if final[end:m["start"]].strip() != "" or m["kind"] != "user" or (limit is not None and m["end"] > limit):
            break
        end = m["end"]
    start = len(final) - len(final[end:].lstrip())
    return 0 if end == 0 or start == len(final) else start


# ------------------------------------------------------------------ v1.1 (and archives)

def v1_entities(ents):
    out = []
    for h in ents.get("hashtags") or []:
        out.append(Entity("hashtag", "#" + h["text"], *h["indices"]))
    for u in ents.get("user_mentions") or []:
        out.append(Entity("user", "@" + u["screen_name"], *u["indices"]))
    for u in ents.get("urls") or []:
        out.append(Entity("url", u["url"], *u["indices"], expanded=u.get("expanded_url"), display=u.get("display_url")))
    return out


def v1_media(objs):
    out = []
    for m in objs:
        large = m["sizes"]["large"]
        out.append({"url": m["media_url_https"], "aspectRatio": num(large["w"]) / num(large["h"]), "kind": m["type"]})
    return out


def decode_v1(status, archive_user=None):
    rt = status.get("retweeted_status")
    content = rt if isinstance(rt, dict) else status
    ext = content.get("extended_tweet")
    if isinstance(ext, dict) and "full_text" in ext:
        level = ext
        text = ext["full_text"]
    elif "full_text" in content:
        level, text = content, content["full_text"]
    else:
        level, text = content, content.get("text", "")
    ents = level.get("entities") or {}
    ext_ents = level.get("extended_entities") or {}
    media_objs = ext_ents.get("media") or ents.get("media") or []
    media_urls = [m.get("url") for m in (ents.get("media") or []) + (ext_ents.get("media") or [])]
    final, mentions = resolve(text, v1_entities(ents), media_urls)
    dtr = level.get("display_text_range")
    start = display_start(final, mentions, bool(content.get("in_reply_to_status_id_str")), num(dtr[0]) if dtr else None)

    def user_of(s):
        if archive_user is not None:
            return dict(archive_user)
        u = s["user"]
        return make_user(u["screen_name"], u["name"], u.get("profile_image_url_https"))

    tweet = {"id": status.get("id_str") or str(status["id"]), "created": v1_date(status["created_at"]),
             "user": user_of(content), "text": final, "mentions": mentions, "media": v1_media(media_objs),
             "displayStart": start, "language": language(content.get("lang"), status.get("lang"))}
    if content is not status:
        tweet["retweetedBy"] = user_of(status)
    return tweet


# ------------------------------------------------------------------ v2 / twarc2

def v2_user(u):
    return make_user(u["username"], u["name"], u.get("profile_image_url"))


def decode_v2(t, users, media, tweets):
    original = None
    for ref in t.get("referenced_tweets") or []:
        if ref.get("type") == "retweeted":
            if ref.get("id") in tweets:
                original = tweets[ref["id"]]
            elif "text" in ref:  # flattened: the original is merged into the reference
                original = ref
    content = original or t
    ents = content.get("entities") or {}
    entities, media_urls = [], []
    for h in ents.get("hashtags") or []:
        entities.append(Entity("hashtag", "#" + h["tag"], h["start"], h["end"]))
    for m in ents.get("mentions") or []:
        entities.append(Entity("user", "@" + m["username"], m["start"], m["end"]))
    for u in ents.get("urls") or []:
        if u.get("media_key"):
            media_urls.append(u["url"])
        else:
            entities.append(Entity("url", u["url"], u["start"], u["end"], expanded=u.get("expanded_url"), display=u.get("display_url")))
    final, mentions = resolve(content["text"], entities, media_urls)
    is_reply = any(r.get("type") == "replied_to" for r in content.get("referenced_tweets") or [])
    start = display_start(final, mentions, is_reply, None)

    att = content.get("attachments") or {}
    inline = {m["media_key"]: m for m in att.get("media") or []}
    out_media = []
    for key in att.get("media_keys") or []:
        m = inline.get(key) or media.get(key)
        if m is None:
            continue
        out_media.append({"url": m.get("url") or m.get("preview_image_url"),
                          "aspectRatio": m["width"] / m["height"], "kind": m["type"]})

    def author(x):
        return v2_user(x["author"]) if isinstance(x.get("author"), dict) else v2_user(users[x["author_id"]])

    tweet = {"id": t["id"], "created": iso_date(t["created_at"]), "user": author(content), "text": final,
             "mentions": mentions, "media": out_media, "displayStart": start,
             "language": language(content.get("lang"), t.get("lang"))}
    if original is not None:
        tweet["retweetedBy"] = author(t)
    return tweet


def decode_v2_page(page):
    inc = page.get("includes") or {}
    users = {u["id"]: u for u in inc.get("users") or []}
    media = {m["media_key"]: m for m in inc.get("media") or []}
    tweets = {x["id"]: x for x in inc.get("tweets") or []}
    data = page["data"]
    if isinstance(data, dict):
        data = [data]
    return [decode_v2(t, users, media, tweets) for t in data]


# ------------------------------------------------------------------ Activity Streams

def decode_activity(a):
    content = a
    if a.get("verb") == "share" and isinstance(a.get("object"), dict) and a["object"].get("objectType") == "activity":
        content = a["object"]
    lo = content.get("long_object") if isinstance(content.get("long_object"), dict) else {}
    text = lo["body"] if "body" in lo else content["body"]
    ents = lo["twitter_entities"] if "twitter_entities" in lo else (content.get("twitter_entities") or {})
    candidates = [(lo.get("twitter_extended_entities") or {}).get("media"),
                  (content.get("twitter_extended_entities") or {}).get("media"),
                  ents.get("media"),
                  (content.get("twitter_entities") or {}).get("media")]
    media_objs = next((c for c in candidates if c), [])
    media_urls = [m.get("url") for c in candidates if c for m in c]
    final, mentions = resolve(text, v1_entities(ents), media_urls)
    dtr = (lo if "body" in lo else content).get("display_text_range")
    start = display_start(final, mentions, "inReplyTo" in a, num(dtr[0]) if dtr else None)

    def user_of(x):
        act = x["actor"]
        return make_user(act["preferredUsername"], act["displayName"], act.get("image"))

    tweet = {"id": a["id"].rsplit(":", 1)[1], "created": iso_date(a["postedTime"]), "user": user_of(content),
             "text": final, "mentions": mentions, "media": v1_media(media_objs), "displayStart": start,
             "language": language(content.get("twitter_lang"), ((content.get("gnip") or {}).get("language") or {}).get("value"),
                                  a.get("twitter_lang"))}
    if content is not a:
        tweet["retweetedBy"] = user_of(a)
    return tweet


# ------------------------------------------------------------------ dispatch

def decode_document(doc):
    if isinstance(doc, list):
        return [t for x in doc for t in decode_document(x)]
    if not isinstance(doc, dict):
        return []
    if "_source" in doc and "body" in doc:
        return decode_document(doc["body"])
    if "statuses" in doc:
        return [decode_v1(s) for s in doc["statuses"]]
    if "data" in doc:
        return decode_v2_page(doc)
    if "actor" in doc and "verb" in doc:
        return [decode_activity(doc)]
    if "user" in doc and "created_at" in doc and ("text" in doc or "full_text" in doc):
        return [decode_v1(doc)]
    if "author_id" in doc and "text" in doc:  # twarc2 flatten: one tweet with everything merged in
        return [decode_v2(doc, {}, {}, {})]
    return []  # error bodies and anything else: not tweets


def decode_file(path):
    docs, errors, is_archive = read_documents(path)
    if is_archive:
        user = archive_account(path)
        tweets = []
        for entry in docs[0]:
            status = entry["tweet"] if "tweet" in entry and isinstance(entry["tweet"], dict) else entry
            tweets.append(decode_v1(status, archive_user=user))
        return {"tweets": tweets, "errorLines": errors}
    tweets = [t for d in docs for t in decode_document(d)]
    return {"tweets": tweets, "errorLines": errors}


def main():
    result = {}
    for root, _, files in os.walk(HERE):
        for name in files:
            if name in NOT_INPUTS or name.startswith(".") or name.endswith(".pyc"):
                continue
            path = os.path.join(root, name)
            rel = os.path.relpath(path, HERE).replace(os.sep, "/")
            result[rel] = decode_file(path)
    result = dict(sorted(result.items()))
    with open(os.path.join(HERE, "expected.json"), "w", encoding="utf-8") as f:
        json.dump(result, f, ensure_ascii=False, indent=2)
        f.write("\n")
    for rel, r in result.items():
        print("%-32s %2d tweets  errorLines=%s" % (rel, len(r["tweets"]), r["errorLines"]))


if __name__ == "__main__":
    main()
