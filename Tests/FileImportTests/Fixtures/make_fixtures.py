#!/usr/bin/env python3
"""Writes the import tests' fixtures in the networks' real formats: Mastodon statuses as the REST API returns them
(an array, pretty-printed as Mastodon.py users save it, and one per line), Bluesky searchPosts, getAuthorFeed (a page
per line) and getPosts answers as minet and the atproto SDKs save them; each file has one broken item.

Run it in this folder: python3 make_fixtures.py
"""
import json

def account(id, username, acct, host, name):
    return {
        "id": id, "username": username, "acct": acct, "display_name": name, "locked": False, "bot": False,
        "discoverable": True, "group": False, "created_at": "2022-11-07T00:00:00.000Z",
        "note": "<p>Photos of harbors.</p>", "url": f"https://{host}/@{username}",
        "uri": f"https://{host}/users/{username}",
        "avatar": f"https://files.{host}/accounts/avatars/{id}/original/a.png",
        "avatar_static": f"https://files.{host}/accounts/avatars/{id}/original/a.png",
        "header": f"https://{host}/headers/original/missing.png",
        "header_static": f"https://{host}/headers/original/missing.png",
        "followers_count": 120, "following_count": 80, "statuses_count": 900,
        "last_status_at": "2024-09-01", "emojis": [], "fields": [],
    }

def status(id, created, acct, content, *, language="en", mentions=(), tags=(), media=(), reply=None,
           spoiler="", sensitive=False, reblog=None, card=None):
    host = "fosstodon.org"
    return {
        "id": id, "created_at": created, "in_reply_to_id": reply[0] if reply else None,
        "in_reply_to_account_id": reply[1] if reply else None, "sensitive": sensitive, "spoiler_text": spoiler,
        "visibility": "public", "language": language,
        "uri": f"https://{host}/users/{acct['username']}/statuses/{id}",
        "url": None if reblog else f"https://{host}/@{acct['username']}/{id}",
        "replies_count": 0, "reblogs_count": 1, "favourites_count": 3, "edited_at": None,
        "favourited": False, "reblogged": False, "muted": False, "bookmarked": False,
        "content": content, "filtered": [], "reblog": reblog,
        "application": {"name": "Web", "website": None}, "account": acct,
        "media_attachments": list(media), "mentions": list(mentions), "tags": list(tags), "emojis": [],
        "card": card, "poll": None,
    }

alice = account("109000000000000001", "alice", "alice", "fosstodon.org", "Alice 🌊")
erin = account("109000000000000005", "erin", "erin", "fosstodon.org", "Erin")
dave = account("109000000000000004", "dave", "dave", "fosstodon.org", "Dave")
carol = account("109000000000000003", "carol", "carol@photo.example", "photo.example", "Carol")
carol["url"] = "https://photo.example/@carol"
bob_mention = {"id": "109000000000000002", "username": "bob", "url": "https://other.example/@bob",
               "acct": "bob@other.example"}
alice_mention = {"id": alice["id"], "username": "alice", "url": "https://fosstodon.org/@alice", "acct": "alice"}

def tag(name, host="fosstodon.org"):
    return {"name": name, "url": f"https://{host}/tags/{name}"}

def hashtag(name, host="fosstodon.org"):
    return f'<a href="https://{host}/tags/{name}" class="mention hashtag" rel="tag">#<span>{name}</span></a>'

def hcard(user, url):
    return f'<span class="h-card" translate="no"><a href="{url}" class="u-url mention">@<span>{user}</span></a></span>'

first = status(
    "113000000000000001", "2024-09-01T08:00:00.000Z", alice,
    f"<p>Morning fog over the {hashtag('harbor')} 🌫️ with {hcard('bob', 'https://other.example/@bob')}</p>",
    mentions=[bob_mention], tags=[tag("harbor")])

original = status(
    "112999999999999999", "2024-08-31T20:00:00.000Z", carol,
    f"<p>Nebel im {hashtag('harbor', 'photo.example')} heute 🚢</p>", language="de",
    tags=[tag("harbor", "photo.example")])
original["uri"] = "https://photo.example/users/carol/statuses/112999999999999999"
original["url"] = "https://photo.example/@carol/112999999999999999"
boost = status("113000000000000002", "2024-09-01T09:00:00.000Z", dave, "", language=None, reblog=original)

reply = status(
    "113000000000000003", "2024-09-01T10:30:00.250Z", erin,
    f"<p>{hcard('alice', 'https://fosstodon.org/@alice')} voilà la {hashtag('brume')} du matin</p>",
    language="fr", mentions=[alice_mention], tags=[tag("brume")], reply=("113000000000000001", alice["id"]),
    spoiler="Bright photos", sensitive=True,
    media=[{
        "id": "113000000000000100", "type": "image",
        "url": "https://files.fosstodon.org/media_attachments/files/113/000/000/original/fog.jpg",
        "preview_url": "https://files.fosstodon.org/media_attachments/files/113/000/000/small/fog.jpg",
        "remote_url": None, "preview_remote_url": None, "text_url": None,
        "meta": {"original": {"width": 1600, "height": 1200, "size": "1600x1200", "aspect": 1.3333333333333333},
                 "small": {"width": 640, "height": 480, "size": "640x480", "aspect": 1.3333333333333333}},
        "description": "Fog over the harbor at dawn, two boats moored", "blurhash": "UFGb@Z~qxuWB"}])

broken = status("113000000000000004", "yesterday", alice, f"<p>Broken date {hashtag('harbor')}</p>",
                tags=[tag("harbor")])

last = status(
    "113000000000000005", "2024-09-01T12:00:00.000Z", alice,
    f'<p>👩‍💻 東京で {hashtag("harbor")} 勉強会 <a href="https://example.com/meetup" rel="nofollow noopener" '
    f'target="_blank"><span class="invisible">https://</span><span class="">example.com/meetup</span>'
    f'<span class="invisible"></span></a></p>',
    language="ja", tags=[tag("harbor")],
    card={"url": "https://example.com/meetup", "title": "Harbor meetup", "description": "Tokyo, Saturday",
          "type": "link", "image": "https://files.fosstodon.org/cache/preview_cards/images/meetup.png"})

statuses = [first, boost, reply, broken, last]
with open("mastodon-statuses.json", "w") as f:
    json.dump(statuses, f, indent=2, ensure_ascii=False)
    f.write("\n")
with open("mastodon-statuses.jsonl", "w") as f:
    for s in statuses:
        f.write(json.dumps(s, ensure_ascii=False) + "\n")

# Bluesky
def profile(did, handle, name):
    return {"did": did, "handle": handle, "displayName": name,
            "avatar": f"https://cdn.bsky.app/img/avatar/plain/{did}/bafkreiavatar@jpeg",
            "associated": {"chat": {"allowIncoming": "following"}}, "labels": [],
            "createdAt": "2023-04-01T00:00:00.000Z"}

ana = profile("did:plc:ana4harbor", "ana.bsky.social", "Ana ⚓")
ben = profile("did:plc:ben4harbor", "ben.bsky.social", "Ben")
cleo = profile("did:plc:cleo4harbor", "cleo.bsky.social", "")

def facets(text, items):
    """items: (substring, feature) in order; byte offsets as Bluesky counts them (UTF-8)."""
    out, start = [], 0
    raw = text.encode("utf-8")
    for piece, feature in items:
        b = raw.index(piece.encode("utf-8"), start)
        out.append({"$type": "app.bsky.richtext.facet", "index": {"byteStart": b, "byteEnd": b + len(piece.encode())},
                    "features": [feature]})
        start = b + len(piece.encode())
    return out

def view(author, rkey, text, created, *, items=(), langs=("en",), embed=None, record_embed=None, reply=None):
    uri = f"at://{author['did']}/app.bsky.feed.post/{rkey}"
    record = {"$type": "app.bsky.feed.post", "createdAt": created, "langs": list(langs), "text": text}
    if items:
        record["facets"] = facets(text, items)
    if record_embed:
        record["embed"] = record_embed
    if reply:
        record["reply"] = reply
    v = {"uri": uri, "cid": "bafyrei" + rkey, "author": author, "record": record, "replyCount": 0,
         "repostCount": 1, "likeCount": 2, "quoteCount": 0, "indexedAt": created, "labels": []}
    if embed:
        v["embed"] = embed
    return v

tag_f = lambda t: {"$type": "app.bsky.richtext.facet#tag", "tag": t}
mention_f = lambda did: {"$type": "app.bsky.richtext.facet#mention", "did": did}
link_f = lambda uri: {"$type": "app.bsky.richtext.facet#link", "uri": uri}

images = {"$type": "app.bsky.embed.images#view", "images": [{
    "thumb": "https://cdn.bsky.app/img/feed_thumbnail/plain/did:plc:ana4harbor/bafkreisun@jpeg",
    "fullsize": "https://cdn.bsky.app/img/feed_fullsize/plain/did:plc:ana4harbor/bafkreisun@jpeg",
    "alt": "Sunrise over the harbor, gulls on the pier", "aspectRatio": {"width": 2000, "height": 1500}}]}
images_record = {"$type": "app.bsky.embed.images", "images": [{
    "alt": "Sunrise over the harbor, gulls on the pier",
    "image": {"$type": "blob", "ref": {"$link": "bafkreisun"}, "mimeType": "image/jpeg", "size": 812345},
    "aspectRatio": {"width": 2000, "height": 1500}}]}
external = {"$type": "app.bsky.embed.external#view", "external": {
    "uri": "https://example.com/tides", "title": "Tide tables", "description": "High and low water",
    "thumb": "https://cdn.bsky.app/img/feed_thumbnail/plain/did:plc:ben4harbor/bafkreitide@jpeg"}}

t1 = "🌅 Sunrise at the #harbor with @ben.bsky.social"
p1 = view(ana, "3l3qo2vutsw2b", t1, "2024-09-02T06:00:00.123Z",
          items=[("#harbor", tag_f("harbor")), ("@ben.bsky.social", mention_f(ben["did"]))],
          embed=images, record_embed=images_record)
t2 = "潮の時刻表 🌊 #harbor example.com/tides"
p2 = view(ben, "3l3qo4abcde2c", t2, "2024-09-02T07:15:00.456789Z", langs=("ja", "en"),
          items=[("#harbor", tag_f("harbor")), ("example.com/tides", link_f("https://example.com/tides"))],
          embed=external)
p3 = view(cleo, "3l3qo5aaaaa2d", "no author handle #harbor", "2024-09-02T08:00:00.000Z",
          items=[("#harbor", tag_f("harbor"))])
p3["author"] = {"did": cleo["did"], "displayName": "Cleo"}
t4 = "@ana.bsky.social lovely light"
p4 = view(cleo, "3l3qo6bbbbb2e", t4, "2024-09-02T09:00:00.000Z", langs=("en",),
          items=[("@ana.bsky.social", mention_f(ana["did"]))],
          reply={"root": {"uri": p1["uri"], "cid": p1["cid"]}, "parent": {"uri": p1["uri"], "cid": p1["cid"]}})
with open("bluesky-search.json", "w") as f:
    json.dump({"posts": [p1, p2, p3, p4], "cursor": "4", "hitsTotal": 4}, f, indent=2, ensure_ascii=False)
    f.write("\n")

# getAuthorFeed of ana, two pages saved one per line: a post, a repost of Ben's, then a post and a broken item.
a1 = view(ana, "3l3qp1aaaaa2f", "Evening #harbor walk 🚶‍♀️", "2024-09-03T18:00:00.000Z",
          items=[("#harbor", tag_f("harbor"))], langs=("en",))
repost = {"post": p2, "reason": {"$type": "app.bsky.feed.defs#reasonRepost", "by": ana,
                                 "uri": "at://did:plc:ana4harbor/app.bsky.feed.repost/3l3qp2rrrrr2g",
                                 "cid": "bafyreirepost", "indexedAt": "2024-09-03T19:00:00.000Z"}}
a2 = view(ana, "3l3qp3aaaaa2h", "Quiet #harbor at night, no words", "2024-09-03T22:00:00.000Z",
          items=[("#harbor", tag_f("harbor"))], langs=[])
gone = view(ana, "3l3qp4aaaaa2i", "x", "2024-09-03T23:00:00.000Z")
del gone["record"]
with open("bluesky-author-feed.jsonl", "w") as f:
    f.write(json.dumps({"feed": [{"post": a1}, repost], "cursor": "2024-09-03T18:00:00.000Z"}, ensure_ascii=False) + "\n")
    f.write(json.dumps({"feed": [{"post": a2}, {"post": gone}]}, ensure_ascii=False) + "\n")

# getPosts: one post, one without a readable time.
g1 = view(ben, "3l3qq1aaaaa2j", "Fog horn test at the #harbor", "2024-09-04T05:00:00.000Z",
          items=[("#harbor", tag_f("harbor"))], langs=("en-GB",))
late = view(ben, "3l3qq2aaaaa2k", "when?", "not a time")
late["indexedAt"] = "neither"
with open("bluesky-get-posts.json", "w") as f:
    json.dump({"posts": [g1, late]}, f, indent=2, ensure_ascii=False)
    f.write("\n")
