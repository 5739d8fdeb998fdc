#!/usr/bin/env python3
"""Generate Smashtag's own hand-made Twitter fixtures.

Every user, id, text and link in here is invented. The fixtures follow the real
wire formats (X API v1.1, v2, twarc2, Twitter archive, Gnip Activity Streams),
but their *content* is ours. Entity offsets are computed here, on the
HTML-escaped text, by code point (Python str indexing), so they are exact --
except where a fixture is deliberately wrong (clamped / off-by-two / withheld
entities), which is always spelled out below.

Run:  python3 make_fixtures.py      (writes next to this script)
Then: python3 make_expected.py      (independent oracle -> expected.json)
"""
import json
import os
from datetime import datetime, timezone, timedelta

HERE = os.path.dirname(os.path.abspath(__file__))
TWITTER_EPOCH_MS = 1288834974657


# ---------------------------------------------------------------- helpers

def esc(raw):
    """Twitter escapes exactly these three characters in delivered text."""
    return raw.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def at(text, token, nth=0):
    """[start, end) of the nth occurrence of token in text, in code points."""
    i = -1
    for _ in range(nth + 1):
        i = text.find(token, i + 1)
        assert i >= 0, (token, text)
    return [i, i + len(token)]


def utc(y, mo, d, h, mi, s, ms=0):
    return datetime(y, mo, d, h, mi, s, ms * 1000, tzinfo=timezone.utc)


def snowflake(dt, seq=0, worker=7):
    ms = int(dt.timestamp() * 1000) - TWITTER_EPOCH_MS
    return (ms << 22) | (worker << 12) | seq


def v1_date(dt):
    return dt.strftime("%a %b %d %H:%M:%S +0000 %Y")


def iso(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%S.") + "%03dZ" % (dt.microsecond // 1000)


def write(rel, content):
    path = os.path.join(HERE, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(content)


def pretty(obj, indent="  ", level=0, width=150):
    """JSON with small leaf objects/arrays kept on one line (readable, compact)."""
    one = json.dumps(obj, ensure_ascii=False)
    if not isinstance(obj, (dict, list)) or not obj:
        return one
    nested = any(isinstance(v, (dict, list)) and v
                 for v in (obj.values() if isinstance(obj, dict) else obj))
    if len(one) + len(indent) * level <= width and (not nested or len(one) <= 100):
        return one
    pad = indent * (level + 1)
    if isinstance(obj, dict):
        items = [pad + json.dumps(k, ensure_ascii=False) + ": " + pretty(v, indent, level + 1, width)
                 for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent * level + "}"
    items = [pad + pretty(v, indent, level + 1, width) for v in obj]
    return "[\n" + ",\n".join(items) + "\n" + indent * level + "]"


# ---------------------------------------------------------------- v1.1

def v1_user(uid, screen_name, name, img):
    return {"id": uid, "id_str": str(uid), "name": name, "screen_name": screen_name,
            "profile_image_url_https": "https://pbs.twimg.com/profile_images/%s/%s_normal.jpg" % (uid, img)}


U_DZ = v1_user(2901334455, "dz_lens", "Dzaïr Lens 📷", "dzLens01")
U_GLYPH = v1_user(4400112233, "glyph_hunter", "Glyph Hunter", "gH7kq2Lm")
U_TOON = v1_user(1187654321, "toon_critic", "Toon Critic <3", "tC0nQx9a")
U_RTL = v1_user(3344556677, "bidi_notes", "ملاحظات ثنائية", "bD1aR8tL")
U_HANABI = v1_user(5566778899, "hanabi_kyo", "花火京子", "hK5nB1yo")
U_SKY = v1_user(6677889900, "night_sky_ana", "Ana · night sky", "nS4kY7aa")
U_YUKI = v1_user(7788990011, "shashin_taro", "写真太郎", "sT9rO2xx")
U_BLOG = v1_user(8899001122, "offset_blog", "Offsets Blog", "oB3lG6pp")
U_RIDGE = v1_user(9900112233, "ridge_walker", "Ridge Walker", "rW8aL4kk")
U_MARTA = v1_user(1029384756, "marta_field", "Marta Field", "mF2eL9dd")
U_RELAY = v1_user(1122334455, "relay_news", "Relay News", "rL6yN3ww")
U_QUIET = v1_user(2233445566, "quiet_one", "Quiet One", "qO1eT5zz")


def mention(text, screen_name, name, uid, nth=0, token=None):
    return {"screen_name": screen_name, "name": name, "id": uid, "id_str": str(uid),
            "indices": at(text, token or "@" + screen_name, nth)}


def hashtag(text, tag, nth=0, sign="#"):
    return {"text": tag, "indices": at(text, sign + tag, nth)}


def url_ent(text, url, expanded, display):
    return {"url": url, "expanded_url": expanded, "display_url": display, "indices": at(text, url)}


def photo(text, mid, tco, status_path, name, large, kind="photo", n=1):
    w, h = large
    def fit(limit):
        f = min(1.0, limit / max(w, h))
        return {"w": round(w * f), "h": round(h * f), "resize": "fit"}
    folder = {"photo": "media", "video": "ext_tw_video_thumb/%d/pu/img" % mid,
              "animated_gif": "tweet_video_thumb"}[kind]
    m = {"id": mid, "id_str": str(mid), "indices": at(text, tco),
         "media_url": "http://pbs.twimg.com/%s/%s.jpg" % (folder, name),
         "media_url_https": "https://pbs.twimg.com/%s/%s.jpg" % (folder, name),
         "url": tco, "display_url": "pic.twitter.com/" + tco.rsplit("/", 1)[1],
         "expanded_url": "https://twitter.com/%s/%s/%d" % (status_path, "photo" if kind == "photo" else "video", n),
         "type": kind,
         "sizes": {"thumb": {"w": 150, "h": 150, "resize": "crop"}, "small": fit(680),
                   "medium": fit(1200), "large": {"w": w, "h": h, "resize": "fit"}}}
    if kind != "photo":
        m["video_info"] = {"aspect_ratio": [w, h], "variants": [
            {"content_type": "video/mp4", "bitrate": 832000 if kind == "video" else 0,
             "url": "https://video.twimg.com/%s/%s.mp4" % ("ext_tw_video/%d/pu/vid" % mid if kind == "video" else "tweet_video", name)}]}
        if kind == "video":
            m["video_info"]["duration_millis"] = 14200
    return m


def v1_status(dt, seq, user, text, *, field="full_text", hashtags=(), mentions=(), urls=(),
              media=None, ext_media=None, symbols=(), entities=True, extra=None, sid=None):
    sid = sid or snowflake(dt, seq)
    s = {"created_at": v1_date(dt), "id": sid, "id_str": str(sid), field: text, "truncated": False}
    if field == "full_text":
        s["display_text_range"] = [0, len(text)]
    if entities:
        ent = {"hashtags": list(hashtags), "symbols": list(symbols),
               "user_mentions": list(mentions), "urls": list(urls)}
        if media:
            ent["media"] = media
        s["entities"] = ent
    if ext_media:
        s["extended_entities"] = {"media": ext_media}
    s["user"] = user
    s.update({"retweet_count": 0, "favorite_count": 0})
    if extra:
        s.update(extra)
    return s


def status_path(user, dt, seq):
    return "%s/status/%d" % (user["screen_name"], snowflake(dt, seq))


def make_v1_search():
    st = []
    # 1. flag emoji (2 regional indicators = 2 code points) right before "\n\n#hirak": [18,24)
    t = esc("Photo du jour 🇩🇿\n\n#hirak #Alger")
    assert at(t, "#hirak") == [18, 24]
    st.append(v1_status(utc(2019, 7, 12, 23, 40, 37), 1, U_DZ, t,
                        hashtags=[hashtag(t, "hirak"), hashtag(t, "Alger")]))
    # 2. astral-plane hashtag #𠀡 (U+20021) after other astral characters
    t = esc("Old scripts 𝔄𝔅 and dragons 🐉🐲: #𠀡 is U+20021, not a typo")
    st.append(v1_status(utc(2019, 7, 12, 23, 31, 5), 2, U_GLYPH, t, hashtags=[hashtag(t, "𠀡")]))
    # 3. &amp; &lt; &gt; before entities; "&quot;" typed literally arrives as "&amp;quot;"
    t = esc('Tom & Jerry <3 forever; 5 > 3 and "&quot;" stays literal. @hanna_b #cartoons https://t.co/Tj5Amp3Lt0')
    st.append(v1_status(utc(2019, 7, 12, 22, 58, 41), 3, U_TOON, t,
                        hashtags=[hashtag(t, "cartoons")],
                        mentions=[mention(t, "hanna_b", "Hanna B.", 3141592653)],
                        urls=[url_ent(t, "https://t.co/Tj5Amp3Lt0", "https://toons.example.org/tom-and-jerry?a=1&b=2",
                                      "toons.example.org/tom-and-jerry…")]))
    # 4. RTL: Arabic hashtag with underscore, Hebrew words, then a Latin mention
    t = esc("صباح الخير من #الجزائر_العاصمة 🌙 שלום מירושלים @rtl_tester")
    st.append(v1_status(utc(2019, 7, 12, 21, 15, 0), 4, U_RTL, t,
                        hashtags=[hashtag(t, "الجزائر_العاصمة")],
                        mentions=[mention(t, "rtl_tester", "RTL Tester", 2718281828)]))
    # 5. CJK text with Japanese hashtags (one mid-text, one at the end)
    t = esc("今日は隅田川の花火大会でした🎆 #花火 とても綺麗！ #夏休み")
    st.append(v1_status(utc(2019, 7, 12, 20, 2, 13), 5, U_HANABI, t,
                        hashtags=[hashtag(t, "花火"), hashtag(t, "夏休み")]))
    # 6. mention case differs: text "@NASA", entity screen_name "nasa" -> keyword keeps "@NASA"
    t = esc("Watching the launch with @NASA tonight 🚀 #Artemis")
    m = mention(t, "nasa", "NASA", 11348282, token="@NASA")
    st.append(v1_status(utc(2019, 7, 12, 19, 44, 59), 6, U_SKY, t,
                        hashtags=[hashtag(t, "Artemis")], mentions=[m]))
    # 7. fullwidth signs: "＃タグ" hashtag (entity text "タグ") and "＠yuki_dev" mention
    t = esc("＠yuki_dev さん、写真ありがとう！ ＃タグ のテストです")
    st.append(v1_status(utc(2019, 7, 12, 18, 30, 30), 7, U_YUKI, t,
                        hashtags=[hashtag(t, "タグ", sign="＃")],
                        mentions=[mention(t, "yuki_dev", "ゆき", 1618033988, token="＠yuki_dev")]))
    # 8. URL entity (expanded/display differ from the t.co token)
    t = esc("New post: decoding tweets by code points, not UTF-16 https://t.co/Bl0gP0st9x via @swift_notes")
    st.append(v1_status(utc(2019, 7, 12, 17, 5, 45), 8, U_BLOG, t,
                        mentions=[mention(t, "swift_notes", "Swift Notes", 1414213562)],
                        urls=[url_ent(t, "https://t.co/Bl0gP0st9x",
                                      "https://offsets.example.com/2019/07/code-points", "offsets.example.com/2019/07/code…")]))
    # 9. three photos: extended_entities has all, entities.media only the first; media link at the end
    dt = utc(2019, 7, 12, 16, 0, 1)
    t = esc("Three frames from the ridge walk 🏔️ panorama, portrait, square https://t.co/R1dgeW4lk3")
    path = status_path(U_RIDGE, dt, 9)
    base = snowflake(dt - timedelta(seconds=40), 0)
    ph = [photo(t, base + 1, "https://t.co/R1dgeW4lk3", path, "EAbCdPan0rAma1", (4096, 1024), n=1),
          photo(t, base + 2, "https://t.co/R1dgeW4lk3", path, "EAbCdP0rtra1t2", (1080, 1920), n=2),
          photo(t, base + 3, "https://t.co/R1dgeW4lk3", path, "EAbCdSquare003", (1200, 1200), n=3)]
    s = v1_status(dt, 9, U_RIDGE, t, media=[ph[0]], ext_media=ph, extra={"possibly_sensitive": False})
    s["display_text_range"] = [0, at(t, "https://t.co/R1dgeW4lk3")[0] - 1]
    st.append(s)
    # 10. retweet: outer text truncated at 140 with entities clamped to [139,140];
    #     retweeted_status has the full text and correct entities.
    odt = utc(2019, 7, 11, 9, 12, 0)
    ot = esc("Our field guide to Unicode in tweets is out: flags 🇩🇿, astral 𠀡, RTL, fullwidth ＃タグ & more. "
             "Thanks @hanna_b for the review! #unicode #tweets #swiftlang")
    orig = v1_status(odt, 10, U_MARTA, ot,
                     hashtags=[hashtag(ot, "unicode"), hashtag(ot, "tweets"), hashtag(ot, "swiftlang")],
                     mentions=[mention(ot, "hanna_b", "Hanna B.", 3141592653)],
                     extra={"retweet_count": 12, "favorite_count": 40})
    prefix = "RT @marta_field: "
    full = prefix + ot
    rt_text = full[:139] + "…"
    assert len(full) > 140

    def shift(e):
        e = dict(e)
        s0, e0 = e["indices"][0] + len(prefix), e["indices"][1] + len(prefix)
        e["indices"] = [s0, e0] if e0 <= 139 else [139, 140]
        return e
    rt_mentions = [mention(rt_text, "marta_field", "Marta Field", U_MARTA["id"])] + [shift(e) for e in orig["entities"]["user_mentions"]]
    rt = v1_status(utc(2019, 7, 12, 15, 20, 20), 11, U_RELAY, rt_text,
                   hashtags=[shift(e) for e in orig["entities"]["hashtags"]], mentions=rt_mentions,
                   extra={"retweet_count": 12, "retweeted_status": orig})
    st.append(rt)
    # 11. no entities at all (no "entities" key): "#notatag" and "@nobody" are NOT mentions
    t = esc("No entities on this one, even though it says #notatag and @nobody in the text.")
    st.append(v1_status(utc(2019, 7, 12, 14, 0, 0), 12, U_QUIET, t, entities=False))

    ids = [s["id"] for s in st]
    page = {"statuses": st, "search_metadata": {
        "completed_in": 0.042, "max_id": max(ids), "max_id_str": str(max(ids)),
        "next_results": "?max_id=%d&q=%%23unicode&count=15&include_entities=1&tweet_mode=extended" % (min(ids) - 1),
        "query": "%23unicode", "refresh_url": "?since_id=%d&q=%%23unicode&include_entities=1&tweet_mode=extended" % max(ids),
        "count": 15, "since_id": 0, "since_id_str": "0"}}
    write("v1-search.json", pretty(page) + "\n")


def make_v1_status_extended():
    dt = utc(2020, 2, 3, 8, 15, 42)
    raw_body = "Great catch, the fix ships tomorrow & the docs too 🎉"
    t = esc("@maria_dev @tomas_k " + raw_body + " https://t.co/V1de0Cl1p5")
    user = v1_user(3030303030, "release_team", "Release Team", "rT0eAm11")
    vid = photo(t, snowflake(dt - timedelta(seconds=90)), "https://t.co/V1de0Cl1p5",
                status_path(user, dt, 1), "Vid3oThumbZ9", (1280, 720), kind="video")
    s = v1_status(dt, 1, user, t,
                  mentions=[mention(t, "maria_dev", "María Dev", 4040404040),
                            mention(t, "tomas_k", "Tomás K", 5050505050)],
                  media=[{k: v for k, v in vid.items() if k != "video_info"} | {"type": "photo"}],
                  ext_media=[vid],
                  extra={"in_reply_to_status_id": snowflake(dt - timedelta(hours=2), 3),
                         "in_reply_to_status_id_str": str(snowflake(dt - timedelta(hours=2), 3)),
                         "in_reply_to_user_id": 4040404040, "in_reply_to_user_id_str": "4040404040",
                         "in_reply_to_screen_name": "maria_dev", "lang": "en"})
    # display_text_range hides the reply prefix and the trailing media link (Smashtag shows both
    # prefix mentions; the media link is removed by the trailing-media rule).
    s["display_text_range"] = [len("@maria_dev @tomas_k "), at(t, "https://t.co/V1de0Cl1p5")[0] - 1]
    write("v1-status-extended.json", pretty(s) + "\n")


def make_v1_statuses():
    out = []
    # 1. streaming/compat: truncated `text` ending with "… https://t.co/..." (a link to itself)
    #    plus extended_tweet {full_text, entities, extended_entities}: extended_tweet wins.
    dt = utc(2021, 5, 4, 10, 0, 0)
    user = v1_user(6060606060, "index_rewrite", "Index Rewrite", "iR3wR1te")
    sid = snowflake(dt, 1)
    full_t = esc("We rewrote the search index in Swift and wrote down what we learned about Unicode: "
                 "scalars vs graphemes, RTL, ＃fullwidth tags & why offsets lie. Thread below, "
                 "reviewed by @marta_field #Swift #Unicode https://t.co/G1fL00pAn1")
    disp_end = at(full_t, "https://t.co/G1fL00pAn1")[0] - 1
    self_link = "https://t.co/Se1fL1nk0A"
    compat = full_t[:115] + "… " + self_link
    assert len(compat) == 140
    gif = photo(full_t, snowflake(dt - timedelta(seconds=30)), "https://t.co/G1fL00pAn1",
                status_path(user, dt, 1), "GifL00pAn1m", (498, 280), kind="animated_gif")
    gif_entity = {k: v for k, v in gif.items() if k != "video_info"} | {"type": "photo"}
    s = v1_status(dt, 1, user, compat, field="text",
                  urls=[url_ent(compat, self_link, "https://twitter.com/i/web/status/%d" % sid,
                                "twitter.com/i/web/status/%s…" % str(sid)[:6])],
                  extra={"truncated": True, "lang": "en", "filter_level": "low", "timestamp_ms": str(int(dt.timestamp() * 1000)),
                         "extended_tweet": {
                             "full_text": full_t, "display_text_range": [0, disp_end],
                             "entities": {"hashtags": [hashtag(full_t, "Swift"), hashtag(full_t, "Unicode")],
                                          "symbols": [],
                                          "user_mentions": [mention(full_t, "marta_field", "Marta Field", U_MARTA["id"])],
                                          "urls": [], "media": [gif_entity]},
                             "extended_entities": {"media": [gif]}}})
    out.append(s)
    # 2. old compat status: `&gt;`, a pre-t.co link with expanded_url null (expandedURL falls back to url)
    dt = utc(2010, 11, 2, 18, 7, 33)
    t = esc("Rule of thumb: offsets > guesses. Old link http://bit.ly/3xAmPle still works #offsets")
    old = v1_status(dt, 0, v1_user(123456789, "old_timer", "Old Timer", "oT1mEr00"), t, field="text",
                    hashtags=[hashtag(t, "offsets")],
                    urls=[{"url": "http://bit.ly/3xAmPle", "expanded_url": None, "display_url": None,
                           "indices": at(t, "http://bit.ly/3xAmPle")}], extra={"lang": "en"},
                    sid=29514271830)  # pre-snowflake era: small sequential id (still > 2^32)
    out.append(old)
    # 3. full_text: hashtag glued to ZWJ emoji sequences (each 👩🏽‍💻 is 4 code points)
    dt = utc(2021, 5, 4, 11, 30, 0)
    t = esc("Pairing session 👩🏽‍💻👨🏻‍💻#pairprogramming with @devon_r — 2 hours, 0 bugs")
    out.append(v1_status(dt, 2, v1_user(7070707070, "pair_lab", "Pair Lab", "pL4bZZ01"), t,
                         hashtags=[hashtag(t, "pairprogramming")],
                         mentions=[mention(t, "devon_r", "Devon R", 8080808080)], extra={"lang": "en"}))
    write("v1-statuses.json", pretty(out) + "\n")


def make_v1_concatenated():
    # 1. quote tweet: content is its own (quoted_status is not a retweet); permalink is a URL mention
    qdt = utc(2022, 1, 10, 9, 0, 0)
    qt = esc("Offsets count code points of the escaped text. Always. #unicode")
    quoted = v1_status(qdt, 4, U_MARTA, qt, hashtags=[hashtag(qt, "unicode")], extra={"lang": "en"})
    dt = utc(2022, 1, 10, 9, 45, 12)
    t = esc("This is exactly the bug we hit last week 😅 https://t.co/Qu0teL1nk2")
    a = v1_status(dt, 1, v1_user(9191919191, "bug_hunter", "Bug Hunter", "bH9nT3rr"), t,
                  urls=[url_ent(t, "https://t.co/Qu0teL1nk2",
                                "https://twitter.com/marta_field/status/%d" % quoted["id"],
                                "twitter.com/marta_field/st…")],
                  extra={"is_quote_status": True, "quoted_status_id": quoted["id"],
                         "quoted_status_id_str": quoted["id_str"], "quoted_status": quoted, "lang": "en"})
    # 2. hashtag at offset 0 and mention ending at the very end of the text
    t = esc("#MondayMotivation ship small, ship often. cc @release_bot")
    b = v1_status(utc(2022, 1, 10, 9, 50, 0), 2, v1_user(9292929292, "ship_it", "Ship It", "sH1pIt00"), t,
                  hashtags=[hashtag(t, "MondayMotivation")],
                  mentions=[mention(t, "release_bot", "Release Bot", 9393939393)], extra={"lang": "en"})
    # Back to back, separated only by a newline, like Twitter's samples.
    write("v1-concatenated.json", json.dumps(a, indent=2, ensure_ascii=False) + "\n"
          + json.dumps(b, indent=2, ensure_ascii=False) + "\n")


def make_v1_clamped():
    # A bare status (no retweeted_status) whose text is a truncated manual RT of exactly 140 code points.
    head = "RT @fieldcrew: Field notes & hand-drawn maps from the @ana survey, ask @ana_lima or @ana again soon. #maps first, then #maps and "
    t = esc(head)
    tail = "#cutofftag"
    t = t + tail[:139 - len(t)] + "…"
    assert len(t) == 140 and t[139] == "…" and "#cutofftag" not in t, (len(t), t)
    ana = at(t, "@ana")
    hashtags = [
        hashtag(t, "maps"),                          # consistent (first "#maps")
        {"text": "maps", "indices": [139, 140]},     # clamped; first #maps is taken -> relocated to the second
        {"text": "map", "indices": [139, 140]},      # clamped; "#map" only occurs inside "#maps" -> dropped
        {"text": "cutofftag", "indices": [139, 140]},  # clamped; cut off in the text -> dropped
    ]
    mentions = [
        mention(t, "fieldcrew", "Field Crew", 1212121212),  # consistent
        {"screen_name": "ana", "name": "Ana", "id": 1313131313, "id_str": "1313131313",
         "indices": [ana[0] + 2, ana[1] + 2]},               # off by 2 -> nearest real "@ana"
        {"screen_name": "ana_lima", "name": "Ana Lima", "id": 1414141414, "id_str": "1414141414",
         "indices": [139, 140]},                             # clamped, but "@ana_lima" is in the text -> relocated
    ]
    s = v1_status(utc(2018, 3, 14, 15, 9, 26), 5, v1_user(1515151515, "manual_rt", "Manual RT", "mRt0Ol55"),
                  t, field="text", hashtags=hashtags, mentions=mentions, extra={"lang": "en"})
    write("v1-clamped.json", pretty(s) + "\n")


# ---------------------------------------------------------------- v2

def v2_user(uid, username, name, img):
    return {"id": str(uid), "name": name, "username": username,
            "profile_image_url": "https://pbs.twimg.com/profile_images/%s/%s_normal.jpg" % (uid, img)}


V2_LENA = v2_user(1500000000000000001, "lena_photo", "Lena Photo", "lEnA01aa")
V2_QA = v2_user(1500000000000000002, "qa_nights", "Q&A Nights", "qAnT02bb")
V2_MIRA = v2_user(1500000000000000003, "mira_codes", "Mira Codes", "mIrA03cc")
V2_RELAY = v2_user(1500000000000000004, "relay_acct", "Relay Account", "rElY04dd")
V2_ECHO = v2_user(1500000000000000005, "echo_fan", "Echo Fan", "eChO05ee")
V2_LAUNCH = v2_user(1500000000000000006, "launch_cam", "Launch Cam 🚀", "lCaM06ff")
V2_GONE = v2_user(1500000000000000007, "rules_notice", "Notice Account", "rNoT07gg")
V2_STOCK = v2_user(1500000000000000008, "stock_watch", "Stock Watch", "sWaT08hh")


def v2_hashtag(text, tag, nth=0):
    s, e = at(text, "#" + tag, nth)
    return {"start": s, "end": e, "tag": tag}


def v2_mention(text, user, nth=0):
    s, e = at(text, "@" + user["username"], nth)
    return {"start": s, "end": e, "username": user["username"], "id": user["id"]}


def v2_url(text, url, expanded, display, media_key=None):
    s, e = at(text, url)
    u = {"start": s, "end": e, "url": url, "expanded_url": expanded, "display_url": display}
    if media_key:
        u["media_key"] = media_key
    return u


def v2_tweet(dt, seq, author, text, entities=None, **extra):
    t = {"id": str(snowflake(dt, seq)), "text": text, "created_at": iso(dt), "author_id": author["id"]}
    t["edit_history_tweet_ids"] = [t["id"]]
    if entities:
        t["entities"] = entities
    t["lang"] = "en"
    t["public_metrics"] = {"retweet_count": 0, "reply_count": 0, "like_count": 0, "quote_count": 0}
    t.update(extra)
    return t


def v2_photo(dt, n, w, h, name):
    return {"media_key": "3_%d" % snowflake(dt - timedelta(seconds=60), n), "type": "photo",
            "url": "https://pbs.twimg.com/media/%s.jpg" % name, "width": w, "height": h}


def v2_truncated_rt(orig_text, username, orig_entities, author):
    """Own text of a v2 retweet ("RT @x: " + original, cut to 140 with "…"), entities shifted, cut ones dropped."""
    prefix = "RT @%s: " % username
    full = prefix + orig_text
    text = full[:139] + "…" if len(full) > 140 else full
    ents = {"mentions": [{"start": 3, "end": 3 + 1 + len(username), "username": username, "id": author["id"]}]}
    for kind in ("hashtags", "mentions"):
        for e in orig_entities.get(kind, []):
            e2 = dict(e, start=e["start"] + len(prefix), end=e["end"] + len(prefix))
            if e2["end"] <= 139:
                ents.setdefault(kind, []).append(e2)
    return text, ents


def make_v2_search():
    data, media, users, inc_tweets = [], [], [], []
    # 1. emoji glued before a hashtag
    dt = utc(2024, 3, 1, 12, 34, 56)
    t = esc("Sunset over the bay 🌇🌊#GoldenHour with @lena_photo")
    data.append(v2_tweet(dt, 1, V2_LENA, t, {"hashtags": [v2_hashtag(t, "GoldenHour")],
                                             "mentions": [v2_mention(t, V2_LENA)]}))
    # 2. &amp; before a mention (the user's display name has a raw "&" -- names are not escaped)
    dt = utc(2024, 3, 1, 12, 30, 0)
    t = esc("Q&A tonight & tomorrow with @devrel_kim — bring questions! #AskDev")
    kim = v2_user(1500000000000000009, "devrel_kim", "Kim (DevRel)", "kIm009ii")
    data.append(v2_tweet(dt, 2, V2_QA, t, {"hashtags": [v2_hashtag(t, "AskDev")], "mentions": [v2_mention(t, kim)]}))
    # 3. retweet whose original is in includes.tweets (original has a photo and a trailing media link)
    odt = utc(2024, 2, 29, 18, 0, 0)
    ot = esc("Shipping Smashtag 1.0 today & it reads every tweet format we could find 🎉 thanks @lena_photo "
             "#SwiftLang #OpenSource https://t.co/M1raPh0t0s")
    mp = v2_photo(odt, 1, 1600, 900, "GHmIrAsh1pIt")
    oents = {"hashtags": [v2_hashtag(ot, "SwiftLang"), v2_hashtag(ot, "OpenSource")],
             "mentions": [v2_mention(ot, V2_LENA)],
             "urls": [v2_url(ot, "https://t.co/M1raPh0t0s", "https://twitter.com/mira_codes/status/%d/photo/1"
                             % snowflake(odt, 3), "pic.twitter.com/M1raPh0t0s", mp["media_key"])]}
    orig = v2_tweet(odt, 3, V2_MIRA, ot, oents, attachments={"media_keys": [mp["media_key"]]})
    inc_tweets.append(orig)
    media.append(mp)
    rtt, rte = v2_truncated_rt(ot, "mira_codes", oents, V2_MIRA)
    data.append(v2_tweet(utc(2024, 3, 1, 12, 20, 0), 4, V2_RELAY, rtt, rte,
                         referenced_tweets=[{"type": "retweeted", "id": orig["id"]}]))
    # 4. retweet whose original is NOT in includes (an errors[] entry says so): own text/entities
    missing_id = str(snowflake(utc(2024, 2, 28, 7, 7, 7), 9))
    gt = esc("RT @ghost_writer: This original was deleted before expansion, so only this copy remains #fallback")
    ghost = v2_user(1500000000000000010, "ghost_writer", "Ghost Writer", "gHoS10jj")
    data.append(v2_tweet(utc(2024, 3, 1, 12, 15, 0), 5, V2_ECHO, gt,
                         {"hashtags": [v2_hashtag(gt, "fallback")], "mentions": [v2_mention(gt, ghost)]},
                         referenced_tweets=[{"type": "retweeted", "id": missing_id}]))
    # 5. two photos + a video (video has preview_image_url, no url); text ends with the media link,
    #    whose url entities carry media_key (one per media item, same t.co)
    dt = utc(2024, 3, 1, 12, 10, 0)
    t = esc("Launch day gallery 🚀 two stills and the countdown clip https://t.co/L4unchGa1y")
    p1 = v2_photo(dt, 1, 2048, 1365, "GHl4uNchWide")
    p2 = v2_photo(dt, 2, 1365, 2048, "GHl4uNchTall")
    vk = "7_%d" % snowflake(dt - timedelta(seconds=60), 3)
    v = {"media_key": vk, "type": "video", "duration_ms": 30500, "width": 1920, "height": 1080,
         "preview_image_url": "https://pbs.twimg.com/ext_tw_video_thumb/%s/pu/img/C0untd0wnThumb.jpg" % vk[2:],
         "variants": [{"bit_rate": 2176000, "content_type": "video/mp4",
                       "url": "https://video.twimg.com/ext_tw_video/%s/pu/vid/1280x720/C0untd0wn.mp4" % vk[2:]}]}
    media += [p1, p2, v]
    sid = snowflake(dt, 6)
    urls = [v2_url(t, "https://t.co/L4unchGa1y", "https://twitter.com/launch_cam/status/%d/%s/%d" % (sid, kind, i + 1),
                   "pic.twitter.com/L4unchGa1y", m["media_key"])
            for i, (m, kind) in enumerate([(p1, "photo"), (p2, "photo"), (v, "video")])]
    data.append(v2_tweet(dt, 6, V2_LAUNCH, t, {"urls": urls},
                         attachments={"media_keys": [p1["media_key"], p2["media_key"], vk]}))
    # 6. notice text whose url entity covers "Learn more" but whose url is a t.co not in the text -> dropped
    t = "This Post violated the X Rules. Learn more."
    s, e = at(t, "Learn more")
    data.append(v2_tweet(utc(2024, 3, 1, 12, 5, 0), 7, V2_GONE, t,
                         {"urls": [{"start": s, "end": e, "url": "https://t.co/Ru1esN0t1c",
                                    "expanded_url": "https://help.x.com/rules-and-policies/notices-on-x",
                                    "display_url": "Learn more"}]}))
    # 7. a reply with a cashtag (ignored) and a hashtag
    dt = utc(2024, 3, 1, 12, 0, 1)
    t = esc("@lena_photo earnings call at 5pm: $SWFT up 4% 📈 #stocks")
    cs, ce = at(t, "$SWFT")
    data.append(v2_tweet(dt, 8, V2_STOCK, t,
                         {"cashtags": [{"start": cs, "end": ce, "tag": "SWFT"}],
                          "hashtags": [v2_hashtag(t, "stocks")], "mentions": [v2_mention(t, V2_LENA)]},
                         in_reply_to_user_id=V2_LENA["id"], conversation_id=data[0]["id"],
                         referenced_tweets=[{"type": "replied_to", "id": data[0]["id"]}]))
    users = [V2_LENA, V2_QA, kim, V2_MIRA, V2_RELAY, V2_ECHO, V2_LAUNCH, V2_GONE, V2_STOCK]
    page = {"data": data, "includes": {"users": users, "media": media, "tweets": inc_tweets},
            "errors": [{"value": missing_id, "detail": "Could not find tweet with referenced_tweets.id: [%s]." % missing_id,
                        "title": "Not Found Error", "resource_type": "tweet", "parameter": "referenced_tweets.id",
                        "resource_id": missing_id, "type": "https://api.twitter.com/2/problems/resource-not-found"}],
            "meta": {"newest_id": data[0]["id"], "oldest_id": data[-1]["id"], "result_count": len(data),
                     "next_token": "b26v89c19zqg8o3fosmashtagfixture0001"}}
    write("v2-search.json", pretty(page) + "\n")


TWARC_URL = ("https://api.twitter.com/2/tweets/search/recent?expansions=author_id%2Creferenced_tweets.id%2C"
             "attachments.media_keys&tweet.fields=attachments%2Cauthor_id%2Ccreated_at%2Centities%2C"
             "referenced_tweets&user.fields=name%2Cprofile_image_url%2Cusername&media.fields=height%2C"
             "media_key%2Cpreview_image_url%2Ctype%2Curl%2Cwidth&max_results=100&query=%23unicode")


def twarc(retrieved):
    return {"url": TWARC_URL, "version": "2.13.0", "retrieved_at": retrieved}


def make_twarc_pages():
    a = v2_user(1600000000000000001, "seoul_sky", "서울 하늘", "sEoU01kk")
    b = v2_user(1600000000000000002, "cafe_madrid", "Café Madrid", "cAfE02ll")
    c = v2_user(1600000000000000003, "thread_bot", "Thread Bot", "tHrD03mm")
    d = v2_user(1600000000000000004, "swift_heart", "Swift ♥", "sWhT04nn")
    t1 = "오늘 서울 날씨 최고 ☀️ #봄 #서울"
    # decomposed "é" (e + U+0301) inside the text and the hashtag: 2 code points, 1 character
    t2 = "Mañana en el cafe\u0301 #cafe\u0301 ☕ con @ana_lima"
    ana = v2_user(1600000000000000009, "ana_lima", "Ana Lima", "aNaL09oo")
    p1 = [v2_tweet(utc(2024, 4, 2, 9, 0, 0), 1, a, t1, {"hashtags": [v2_hashtag(t1, "봄"), v2_hashtag(t1, "서울")]}),
          v2_tweet(utc(2024, 4, 2, 8, 59, 0), 2, b, t2,
                   {"hashtags": [v2_hashtag(t2, "cafe\u0301")], "mentions": [v2_mention(t2, ana)]})]
    t3 = "🧵 Thread on scalar offsets → https://t.co/Thr3adL1nk #unicode"
    t4 = esc("Swift <3 Unicode: 👍🏾 is two scalars #swift")
    p2 = [v2_tweet(utc(2024, 4, 2, 8, 50, 0), 3, c, t3,
                   {"urls": [v2_url(t3, "https://t.co/Thr3adL1nk", "https://threads.example.net/scalars",
                                    "threads.example.net/scalars")],
                    "hashtags": [v2_hashtag(t3, "unicode")]}),
          v2_tweet(utc(2024, 4, 2, 8, 45, 30), 4, d, t4, {"hashtags": [v2_hashtag(t4, "swift")]})]
    line1 = {"data": p1, "includes": {"users": [a, b, ana]},
             "meta": {"newest_id": p1[0]["id"], "oldest_id": p1[1]["id"], "result_count": 2,
                      "next_token": "b26v89c19zqg8o3fosmashtagfixture0002"},
             "__twarc": twarc("2024-04-02T09:01:12+00:00")}
    line2 = {"data": p2, "includes": {"users": [c, d]},
             "meta": {"newest_id": p2[0]["id"], "oldest_id": p2[1]["id"], "result_count": 2},
             "__twarc": twarc("2024-04-02T09:01:14+00:00")}
    write("twarc2-pages.jsonl", "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in (line1, line2)))


def make_twarc_flat():
    a = v2_user(1700000000000000001, "tide_tables", "Tide Tables", "tIdE01pp")
    b = v2_user(1700000000000000002, "kite_shots", "Kite Shots", "kItE02qq")
    c = v2_user(1700000000000000003, "boost_bot", "Boost Bot", "bOoS03rr")
    orig_author = v2_user(1700000000000000004, "coast_guardian", "Coast Guardian", "cOaS04ss")
    lines = []
    # 1. plain tweet; flattened mentions carry the merged user fields
    t = esc("High tide at 14:32 & low at 20:47 today. Ask @coast_guardian #tides")
    m = v2_mention(t, orig_author) | {"name": orig_author["name"], "profile_image_url": orig_author["profile_image_url"]}
    tw = v2_tweet(utc(2024, 5, 5, 6, 0, 0), 1, a, t, {"hashtags": [v2_hashtag(t, "tides")], "mentions": [m]})
    tw["author"] = a
    tw["__twarc"] = twarc("2024-05-05T06:10:00+00:00")
    lines.append(tw)
    # 2. photo tweet: attachments.media holds the full media objects; trailing media link (media_key)
    dt = utc(2024, 5, 5, 5, 30, 0)
    t = "Kites over the dunes 🪁🪁 https://t.co/K1tesDun3s"
    ph = v2_photo(dt, 1, 3000, 2000, "GKk1tEsDuNe1")
    tw = v2_tweet(dt, 2, b, t, {"urls": [v2_url(t, "https://t.co/K1tesDun3s",
                                              "https://twitter.com/kite_shots/status/%d/photo/1" % snowflake(dt, 2),
                                              "pic.twitter.com/K1tesDun3s", ph["media_key"])]},
                  attachments={"media_keys": [ph["media_key"]], "media": [ph]})
    tw["author"] = b
    tw["__twarc"] = twarc("2024-05-05T06:10:00+00:00")
    lines.append(tw)
    # 3. retweet: referenced_tweets[0] has the original merged in (author, text, entities, media)
    odt = utc(2024, 5, 4, 22, 0, 0)
    ot = esc("Storm warning for the north coast tonight: winds > 90 km/h, stay off the piers. "
             "Updates from @tide_tables every hour #StormWatch #coast https://t.co/St0rmMap01")
    omp = v2_photo(odt, 1, 1200, 1500, "GSt0rMmApXyz")
    oents = {"hashtags": [v2_hashtag(ot, "StormWatch"), v2_hashtag(ot, "coast")],
             "mentions": [v2_mention(ot, a)],
             "urls": [v2_url(ot, "https://t.co/St0rmMap01", "https://twitter.com/coast_guardian/status/%d/photo/1"
                             % snowflake(odt, 5), "pic.twitter.com/St0rmMap01", omp["media_key"])]}
    orig = v2_tweet(odt, 5, orig_author, ot, oents, attachments={"media_keys": [omp["media_key"]], "media": [omp]})
    orig["author"] = orig_author
    rtt, rte = v2_truncated_rt(ot, "coast_guardian", oents, orig_author)
    tw = v2_tweet(utc(2024, 5, 5, 5, 0, 0), 3, c, rtt, rte,
                  referenced_tweets=[{"type": "retweeted"} | orig])
    tw["author"] = c
    tw["__twarc"] = twarc("2024-05-05T06:10:00+00:00")
    lines.append(tw)
    write("twarc2-flat.jsonl", "".join(json.dumps(x, ensure_ascii=False) + "\n" for x in lines))


def make_recorded_body():
    a = v2_user(1800000000000000001, "regex_rita", "Rita Regex", "rItA01tt")
    b = v2_user(1800000000000000002, "ui_sam", "Sam <UI>", "uIsA02uu")
    t1 = "Trying #swift regex builders today, no more escaping backslashes"
    t2 = esc("@regex_rita the new <Observable> macro is neat #swift #SwiftUI")
    data = [v2_tweet(utc(2024, 6, 1, 10, 0, 0), 1, a, t1, {"hashtags": [v2_hashtag(t1, "swift")]}),
            v2_tweet(utc(2024, 6, 1, 9, 55, 0), 2, b, t2,
                     {"hashtags": [v2_hashtag(t2, "swift"), v2_hashtag(t2, "SwiftUI")], "mentions": [v2_mention(t2, a)]})]
    body = {"data": data, "includes": {"users": [a, b]},
            "meta": {"newest_id": data[0]["id"], "oldest_id": data[1]["id"], "result_count": 2}}
    rec = {"_source": {"cassette": "x.yaml", "interaction": 0,
                       "uri": "https://api.twitter.com/2/tweets/search/recent?query=%23swift", "status": 200},
           "body": body}
    write("recorded-body.json", pretty(rec) + "\n")


def make_malformed():
    u = v2_user(1900000000000000001, "line_counter", "Line Counter", "lNcT01vv")
    lines = []
    for n, txt in [(1, "Line one is fine #jsonl"), (2, "Line two is fine too #jsonl"),
                   (3, "Line three gets cut off in the middle of this string #jsonl"), (4, "Line four recovers #jsonl")]:
        tw = v2_tweet(utc(2024, 7, 1, 12, 0, 0) - timedelta(minutes=n), n, u, txt,
                      {"hashtags": [v2_hashtag(txt, "jsonl")]})
        page = {"data": [tw], "includes": {"users": [u]},
                "meta": {"newest_id": tw["id"], "oldest_id": tw["id"], "result_count": 1},
                "__twarc": twarc("2024-07-01T12:05:0%d+00:00" % n)}
        s = json.dumps(page, ensure_ascii=False)
        if n == 3:
            s = s[:s.index("in the middle") + len("in the mid")]  # truncated mid-string
        lines.append(s)
    write("malformed.jsonl", "\n".join(lines) + "\n")


# ---------------------------------------------------------------- archives

def arch(obj):
    """Archive style: every number becomes a string (ids, indices, sizes, counts)."""
    if isinstance(obj, bool) or obj is None:
        return obj
    if isinstance(obj, (int, float)):
        return str(obj)
    if isinstance(obj, list):
        return [arch(x) for x in obj]
    if isinstance(obj, dict):
        return {k: arch(v) for k, v in obj.items()}
    return obj


def archive_tweet(dt, seq, text, hashtags=(), mentions=(), urls=(), media=None):
    sid = snowflake(dt, seq)
    t = {"edit_info": {"initial": {"editTweetIds": [str(sid)], "editableUntil": iso(dt + timedelta(hours=1)),
                                   "editsRemaining": "5", "isEditEligible": True}},
         "retweeted": False, "source": '<a href="https://mobile.twitter.com" rel="nofollow">Twitter Web App</a>',
         "entities": {"hashtags": list(hashtags), "symbols": [], "user_mentions": list(mentions), "urls": list(urls)},
         "display_text_range": [0, len(text)], "favorite_count": 3, "id_str": str(sid), "truncated": False,
         "retweet_count": 1, "id": sid, "created_at": v1_date(dt), "favorited": False, "full_text": text, "lang": "en"}
    if media:
        t["entities"]["media"] = media[:1]
        t["extended_entities"] = {"media": media}
        t["possibly_sensitive"] = False
    return arch(t)


def make_archive():
    tweets = []
    dt = utc(2023, 10, 21, 7, 45, 0)
    t = esc("Rainy market morning in Lisbon ☔ #streetphotography https://t.co/Arch1vePh0")
    ph = photo(t, snowflake(dt - timedelta(seconds=20)), "https://t.co/Arch1vePh0",
               "kit_archivist/status/%d" % snowflake(dt, 1), "F8aRcH1vEpHo", (1536, 2048))
    tweets.append(archive_tweet(dt, 1, t, hashtags=[hashtag(t, "streetphotography")], media=[ph]))
    t = esc("Notes to self: backups & exports > regrets. cc @future_me")
    tweets.append(archive_tweet(utc(2023, 10, 20, 22, 10, 5), 2, t,
                                mentions=[mention(t, "future_me", "Future Me", 2020202020)]))
    # archive retweets have no retweeted_status: just a tweet whose text starts with "RT @"
    t = esc("RT @marta_field: Unicode is hard & fun")
    tweets.append(archive_tweet(utc(2023, 10, 19, 12, 0, 0), 3, t,
                                mentions=[mention(t, "marta_field", "Marta Field", U_MARTA["id"])]))
    body = json.dumps([{"tweet": x} for x in tweets], indent=2, ensure_ascii=False, separators=(",", " : "))
    write("archive/data/tweets.js", "window.YTD.tweets.part0 = " + body)
    account = [{"account": {"email": "kit@example.org", "createdVia": "web", "username": "kit_archivist",
                            "accountId": "987654321012345678", "createdAt": "2012-05-06T07:08:09.000Z",
                            "accountDisplayName": "Kit Archivist"}}]
    write("archive/data/account.js", "window.YTD.account.part0 = "
          + json.dumps(account, indent=2, ensure_ascii=False, separators=(",", " : ")))


def make_archive_old():
    tweets = []
    t = esc("Reading list: https://t.co/0ldArch1v3 #books")
    tweets.append(archive_tweet(utc(2018, 1, 2, 3, 4, 5), 1, t, hashtags=[hashtag(t, "books")],
                                urls=[url_ent(t, "https://t.co/0ldArch1v3", "https://books.example.org/list",
                                              "books.example.org/list")]))
    t = esc("Happy new year @old_friend <3 #2018")
    tweets.append(archive_tweet(utc(2018, 1, 1, 0, 0, 1), 2, t, hashtags=[hashtag(t, "2018")],
                                mentions=[mention(t, "old_friend", "Old Friend", 3030303031)]))
    for x in tweets:  # older archives had no edit_info
        x.pop("edit_info")
    body = json.dumps(tweets, indent=2, ensure_ascii=False, separators=(",", " : "))
    write("archive-old/tweet.js", "window.YTD.tweet.part0 = " + body)


# ---------------------------------------------------------------- Activity Streams

def as_actor(uid, username, name, img):
    return {"objectType": "person", "id": "id:twitter.com:%d" % uid, "link": "http://www.twitter.com/" + username,
            "displayName": name, "postedTime": "2015-01-01T00:00:00.000Z",
            "image": "https://pbs.twimg.com/profile_images/%d/%s_normal.jpg" % (uid, img),
            "summary": None, "links": [{"href": None, "rel": "me"}], "friendsCount": -1, "followersCount": -1,
            "listedCount": -1, "statusesCount": -1, "favoritesCount": -1, "twitterTimeZone": None,
            "verified": False, "utcOffset": None, "preferredUsername": username, "languages": ["en"]}


def as_activity(dt, seq, actor, body, entities, verb="post", **extra):
    sid = snowflake(dt, seq)
    link = "http://twitter.com/%s/statuses/%d" % (actor["preferredUsername"], sid)
    a = {"id": "tag:search.twitter.com,2005:%d" % sid, "objectType": "activity", "verb": verb,
         "postedTime": iso(dt), "generator": {"displayName": "Twitter Web App", "link": "https://mobile.twitter.com"},
         "provider": {"objectType": "service", "displayName": "Twitter", "link": "http://www.twitter.com"},
         "link": link, "body": body, "actor": actor,
         "object": {"objectType": "note", "id": "object:search.twitter.com,2005:%d" % sid, "summary": body,
                    "link": link, "postedTime": iso(dt)},
         "favoritesCount": 0, "twitter_entities": entities, "twitter_filter_level": "low", "twitter_lang": "en",
         "retweetCount": 0}
    a.update(extra)
    return a


def ents(hashtags=(), mentions=(), urls=(), media=None):
    e = {"hashtags": list(hashtags), "symbols": [], "urls": list(urls), "user_mentions": list(mentions)}
    if media:
        e["media"] = media
    return e


def make_activity_streams():
    # "post" with long_object: the short body is truncated with a link to itself; the long body wins.
    dt = utc(2017, 9, 30, 16, 20, 0)
    actor = as_actor(2121212121, "gnip_reader", "Gnip Reader", "gNiP21ww")
    sid = snowflake(dt, 1)
    long_body = esc("Activity Streams keep the long text in long_object & the short one in body: "
                    "both are HTML-escaped, indices count code points (😀 = 1). Thanks @marta_field "
                    "#ActivityStreams #gnip https://t.co/Gn1pPh0t0s")
    assert len(long_body) > 140
    self_link = "https://t.co/Gn1pSe1fL1"
    short = long_body[:115] + "… " + self_link
    pics = [photo(long_body, snowflake(dt - timedelta(seconds=30), i), "https://t.co/Gn1pPh0t0s",
                  "gnip_reader/status/%d" % sid, name, size, n=i)
            for i, (name, size) in enumerate([("DLgNiPwIdE01", (2000, 1000)), ("DLgNiPtAlL02", (900, 1600))], 1)]
    short_ents = ents(urls=[url_ent(short, self_link, "https://twitter.com/i/web/status/%d" % sid,
                                    "twitter.com/i/web/status/%s…" % str(sid)[:6])])
    long_ents = ents(hashtags=[hashtag(long_body, "ActivityStreams"), hashtag(long_body, "gnip")],
                     mentions=[mention(long_body, "marta_field", "Marta Field", U_MARTA["id"])], media=pics[:1])
    a = as_activity(dt, 1, actor, short, short_ents,
                    display_text_range=[0, 140],
                    long_object={"body": long_body, "display_text_range": [0, at(long_body, "https://t.co/Gn1pPh0t0s")[0] - 1],
                                 "twitter_entities": long_ents},
                    twitter_extended_entities={"media": pics})
    write("activity-streams.json", json.dumps(a, indent="\t", ensure_ascii=False) + "\n")

    # "share": object is the original activity (retweet)
    odt = utc(2017, 9, 29, 8, 0, 0)
    oactor = as_actor(2323232323, "harbor_cam", "Harbor Cam", "hArB23yy")
    ob = esc("Fog rolling into the harbor <5 min after sunrise 🌫️ #fog https://t.co/H4rb0rF0g1")
    opic = photo(ob, snowflake(odt - timedelta(seconds=30)), "https://t.co/H4rb0rF0g1",
                 "harbor_cam/status/%d" % snowflake(odt, 2), "DKhArBoRfOg1", (1600, 1200))
    orig = as_activity(odt, 2, oactor, ob, ents(hashtags=[hashtag(ob, "fog")], media=[opic]),
                       twitter_extended_entities={"media": [opic]})
    sactor = as_actor(2424242424, "fog_fan", "Fog Fan", "fOgF24zz")
    sb = "RT @harbor_cam: " + ob
    sdt = utc(2017, 9, 30, 7, 15, 0)
    sh = as_activity(sdt, 3, sactor, sb,
                     ents(hashtags=[hashtag(sb, "fog")], mentions=[mention(sb, "harbor_cam", "Harbor Cam", 2323232323)],
                          media=[dict(opic, indices=at(sb, "https://t.co/H4rb0rF0g1"))]),
                     verb="share", retweetCount=1,
                     twitter_extended_entities={"media": [dict(opic, indices=at(sb, "https://t.co/H4rb0rF0g1"))]})
    sh["object"] = orig
    write("activity-streams-share.json", json.dumps(sh, indent="\t", ensure_ascii=False) + "\n")


def make_not_tweets():
    write("not-tweets.json", json.dumps({"errors": [{"code": 88, "message": "Rate limit exceeded"}]}) + "\n")


if __name__ == "__main__":
    make_v1_search()
    make_v1_status_extended()
    make_v1_statuses()
    make_v1_concatenated()
    make_v1_clamped()
    make_v2_search()
    make_twarc_pages()
    make_twarc_flat()
    make_archive()
    make_archive_old()
    make_recorded_body()
    make_activity_streams()
    make_malformed()
    make_not_tweets()
