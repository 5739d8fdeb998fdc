"""A Bluesky service in the recorded shapes, for the browser tests: a session for one handle and app password, and
searchPosts answering `#swift` with our own post views (images, a quote with its own image, a link preview, emoji
before facets)."""
import datetime
import json
import urllib.parse

from stub_http import JSONHandler, serve

HANDLE = "tester.bsky.social"
APP_PASSWORD = "abcd-efgh-ijkl-mnop"
# The Smashtag server under test, once it runs: its demo pictures stand in for Bluesky's CDN.
PICTURES = "https://cdn.example/"


# What the public AppView's getProfiles knows, by DID (the live index's authors).
PROFILES = {}


def when(minutes_ago):
    moment = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=minutes_ago)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z"


def author(handle, name):
    return {"did": "did:plc:" + handle.split(".")[0], "handle": handle, "displayName": name, "avatar": ""}


def record(text, minutes_ago, tag="swift"):
    start = len(text.encode()) - len(("#" + tag).encode())
    facets = [{"index": {"byteStart": start, "byteEnd": len(text.encode())},
               "features": [{"$type": "app.bsky.richtext.facet#tag", "tag": tag}]}]
    return {"$type": "app.bsky.feed.post", "text": text, "createdAt": when(minutes_ago), "facets": facets, "langs": ["en"]}


def images(*names):
    return {"$type": "app.bsky.embed.images#view", "images": [
        {"thumb": PICTURES + name, "fullsize": PICTURES + name, "alt": "", "aspectRatio": {"width": 600, "height": 400}}
        for name in names]}


def view(rkey, handle, name, text, minutes_ago, embed=None):
    post = {"uri": f"at://did:plc:{handle.split('.')[0]}/app.bsky.feed.post/{rkey}", "cid": "bafy" + rkey,
            "author": author(handle, name), "record": record(text, minutes_ago), "indexedAt": when(minutes_ago),
            "replyCount": 0, "repostCount": 0, "likeCount": 0, "quoteCount": 0, "labels": []}
    if embed:
        post["embed"] = embed
    return post


def posts():
    quoted = {"$type": "app.bsky.embed.record#viewRecord", "uri": "at://did:plc:quinn/app.bsky.feed.post/3laaaaaaaaaa2",
              "cid": "bafyq", "author": author("quinn.bsky.social", "Quinn"), "value": record("The quoted thought #swift", 90),
              "embeds": [images("demo/images/21-600x400.svg")], "indexedAt": when(90)}
    card = {"$type": "app.bsky.embed.external#view", "external": {
        "uri": "https://www.swift.org/blog/", "title": "Swift.org blog", "description": "News from the Swift project"}}
    return [
        view("3lbbbbbbbbbb2", "sky.bsky.social", "Sky Walker", "🦋 Pictures from the conference #swift", 2,
             images("demo/images/22-600x400.svg", "demo/images/23-600x400.svg")),
        view("3lcccccccccc2", "rio.bsky.social", "Rio", "东京 — quoting this #swift", 3,
             {"$type": "app.bsky.embed.record#view", "record": quoted}),
        view("3ldddddddddd2", "sam.bsky.social", "Sam", "Read the news #swift", 4, card),
    ]


def clips():
    """`#clips`: a video (an HLS playlist, as Bluesky serves them) and a described picture."""
    video = {"$type": "app.bsky.embed.video#view", "cid": "bafyvideo",
             "playlist": "https://video.bsky.app/watch/did%3Aplc%3Awave/bafyvideo/playlist.m3u8",
             "thumbnail": PICTURES + "demo/images/37-1280x720.svg", "alt": "Waves breaking at sunset, seen from a cliff",
             "aspectRatio": {"width": 1280, "height": 720}}
    picture = {"$type": "app.bsky.embed.images#view", "images": [
        {"thumb": PICTURES + "demo/images/38-600x400.svg", "fullsize": PICTURES + "demo/images/38-600x400.svg",
         "alt": "A hand-drawn map of the harbour", "aspectRatio": {"width": 600, "height": 400}}]}
    posts = [view("3leeeeeeeeee2", "wave.bsky.social", "Wave", "Sunset waves #clips", 1, video),
             view("3lffffffffff2", "map.bsky.social", "Mapper", "The harbour map #clips", 2, picture)]
    for minutes, post in enumerate(posts, start=1):
        post["record"] = record(post["record"]["text"], minutes, tag="clips")
    return posts


class Handler(JSONHandler):
    def do_POST(self):
        path = urllib.parse.urlsplit(self.path).path
        length = int(self.headers.get("Content-Length") or 0)
        body = json.loads(self.rfile.read(length) or b"{}")
        if path.endswith("/com.atproto.server.createSession"):
            if body.get("identifier") != HANDLE or body.get("password") != APP_PASSWORD:
                return self.answer(401, {"error": "AuthenticationRequired", "message": "Invalid identifier or password"})
            return self.answer(200, {"accessJwt": "access", "refreshJwt": "refresh", "handle": HANDLE, "did": "did:plc:tester"})
        if path.endswith("/com.atproto.server.refreshSession"):
            return self.answer(200, {"accessJwt": "access", "refreshJwt": "refresh", "handle": HANDLE, "did": "did:plc:tester"})
        self.answer(501, {"error": "MethodNotImplemented"})

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        if url.path.endswith("/app.bsky.actor.getProfiles"):  # public: no session
            actors = urllib.parse.parse_qs(url.query).get("actors", [])
            return self.answer(200, {"profiles": [PROFILES[did] for did in actors if did in PROFILES]})
        if self.headers.get("Authorization") != "Bearer access":
            return self.answer(400, {"error": "ExpiredToken", "message": "Token has expired"})
        if not url.path.endswith("/app.bsky.feed.searchPosts"):
            return self.answer(501, {"error": "MethodNotImplemented"})
        query = urllib.parse.parse_qs(url.query)
        first_page = "since" not in query and "until" not in query
        chosen = {"swift": posts, "clips": clips}.get((query.get("tag") or [""])[0], list)() if first_page else []
        self.answer(200, {"posts": chosen})


def start():
    """Serves on a free port of 127.0.0.1 in a daemon thread; returns the environment that points Smashtag at it."""
    return {"SMASHTAG_BLUESKY_SERVICE": serve(Handler),
            "SMASHTAG_BLUESKY_HANDLE": HANDLE, "SMASHTAG_BLUESKY_APP_PASSWORD": APP_PASSWORD}
