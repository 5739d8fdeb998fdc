"""A Mastodon server in the recorded shapes, for the browser tests: a tag timeline of our own statuses (a content
warning with sensitive media, a boost, a quote, mentions and links), and `#stanford`, whose timeline it hides from
visitors as servers that require sign-in do (422)."""
import datetime
import urllib.parse

from stub_http import JSONHandler, serve

HOST = "stub.example"
# The Smashtag server under test, once it runs: a picture it serves stands for one whose size a server did not give.
PICTURES = "https://stub.example/"


def account(name, display):
    return {"id": "a-" + name, "username": name, "acct": name, "display_name": display,
            "url": f"https://{HOST}/@{name}", "avatar": ""}


def status(number, minutes_ago, content, **extra):
    created = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=minutes_ago)
    base = {
        "id": str(number), "created_at": created.strftime("%Y-%m-%dT%H:%M:%S.000Z"), "content": content,
        "url": f"https://{HOST}/@alice/{number}", "account": account("alice", "Alice Mastodon"),
        "mentions": [], "tags": [{"name": "swift"}], "media_attachments": [], "sensitive": False,
        "spoiler_text": "", "reblog": None,
    }
    base.update(extra)
    return base


TAG = '<a href="https://stub.example/tags/swift" class="mention hashtag" rel="tag">#<span>swift</span></a>'
BOB = '<span class="h-card"><a href="https://other.example/@bob" class="u-url mention">@<span>bob</span></a></span>'
LINK = ('<a href="https://www.swift.org/blog/" rel="nofollow noopener" target="_blank"><span class="invisible">https://www.'
        '</span><span class="ellipsis">swift.org/blog</span><span class="invisible">/</span></a>')

def statuses():
    return [
    status(1004, 1, f"<p>Swift on the server {TAG} with {BOB}</p><p>Read {LINK}</p>",
           mentions=[{"id": "b", "username": "bob", "acct": "bob@other.example", "url": "https://other.example/@bob"}],
           media_attachments=[{"type": "image", "url": PICTURES + "demo/images/7-600x200.svg", "meta": {}}]),
    status(1003, 2, f"<p>Spoilers about the keynote {TAG}</p>", spoiler_text="Keynote spoilers", sensitive=True,
           media_attachments=[{"type": "image", "url": PICTURES + "demo/images/8-800x600.svg",
                               "meta": {"original": {"width": 800, "height": 600}}}]),
    status(1002, 3, "", reblog=status(900, 30, f"<p>Boosted: concurrency notes {TAG}</p>",
                                      account=account("carol", "Carol"), url=f"https://{HOST}/@carol/900")),
    status(1001, 4, f"<p>Quoting this {TAG}</p>",
           quote={"state": "accepted", "quoted_status": status(800, 60, f"<p>The original thought {TAG}</p>",
                                                                account=account("dave", "Dave"), url=f"https://{HOST}/@dave/800")}),
    ]


def unindexed():
    """`#unindexed`: Erin has not opted in to search (`indexable: false`, Mastodon's default), Frank has."""
    erin = dict(account("erin", "Erin Private"), indexable=False)
    frank = dict(account("frank", "Frank Open"), indexable=True)
    tags = TAG.replace("swift", "unindexed") + " " + TAG.replace("swift", "garden")
    return [
        status(3002, 1, f"<p>Only for my followers' eyes {tags}</p>", account=erin,
               url=f"https://{HOST}/@erin/3002", tags=[{"name": "unindexed"}, {"name": "garden"}]),
        status(3001, 2, f"<p>Public and searchable {tags}</p>", account=frank,
               url=f"https://{HOST}/@frank/3001", tags=[{"name": "unindexed"}, {"name": "garden"}]),
    ]


def conversation():
    """`#threads`: a conversation — Alice's question, Carol's answer, Alice's thanks, Dave's aside — and one reply
    whose parent was deleted; statuses name what they answer (`in_reply_to_id`) and count their replies."""
    tag = '<a href="https://stub.example/tags/threads" class="mention hashtag" rel="tag">#<span>threads</span></a>'
    def post(number, minutes_ago, text, author, parent, replies):
        return status(number, minutes_ago, f"<p>{text} {tag}</p>", account=account(author, author.title()),
                      url=f"https://{HOST}/@{author}/{number}", tags=[{"name": "threads"}],
                      in_reply_to_id=parent and str(parent), replies_count=replies)
    return [
        post(4005, 1, "Replying to something that is gone", "erin", 3999, 0),
        post(4004, 2, "An aside about actors", "dave", 4001, 0),
        post(4003, 3, "Thanks, that settles it", "alice", 4002, 0),
        post(4002, 4, "Use a task group: each child is awaited", "carol", 4001, 1),
        post(4001, 5, "How do I wait for several tasks at once?", "alice", None, 2),
    ]


FILES = "https://files.stub.example/"  # where its videos and sounds play from (never fetched: preload="none")


def clips():
    """`#clips`: every kind of media Mastodon sends, with and without descriptions."""
    clip = '<a href="https://stub.example/tags/clips" class="mention hashtag" rel="tag">#<span>clips</span></a>'
    return [
        status(2004, 1, f"<p>The cat and the laser {clip}</p>", tags=[{"name": "clips"}], media_attachments=[{
            "type": "video", "url": FILES + "cat.mp4", "preview_url": PICTURES + "demo/images/31-1280x720.svg",
            "description": "A grey cat chasing a red laser dot across a wooden floor",
            "meta": {"original": {"width": 1280, "height": 720, "duration": 12.5}}}]),
        status(2003, 2, f"<p>Loop of the day {clip}</p>", tags=[{"name": "clips"}], media_attachments=[{
            "type": "gifv", "url": FILES + "loop.mp4", "preview_url": PICTURES + "demo/images/32-600x332.svg",
            "description": None, "meta": {"original": {"width": 600, "height": 332, "duration": 1.11}}}]),
        status(2002, 3, f"<p>Birdsong at dawn {clip}</p>", tags=[{"name": "clips"}], media_attachments=[{
            "type": "audio", "url": FILES + "birds.mp3", "preview_url": FILES + "birds-small.mp3",
            "description": "Blackbird and robin, recorded at 5 am", "meta": {"duration": 402.86}}]),
        status(2001, 4, f"<p>Two pictures {clip}</p>", tags=[{"name": "clips"}], media_attachments=[
            {"type": "image", "url": PICTURES + "demo/images/33-800x600.svg",
             "description": 'A <b>bold</b> claim & "quotes" <script>alert(1)</script>',
             "meta": {"original": {"width": 800, "height": 600}}},
            {"type": "image", "url": PICTURES + "demo/images/34-600x600.svg", "description": "",
             "meta": {"original": {"width": 600, "height": 600}}}]),
        status(2000, 5, f"<p>Surgery footage {clip}</p>", tags=[{"name": "clips"}], sensitive=True,
               spoiler_text="Medical", media_attachments=[{
                   "type": "video", "url": FILES + "surgery.mp4", "preview_url": PICTURES + "demo/images/35-640x480.svg",
                   "description": "An operating theatre", "meta": {"original": {"width": 640, "height": 480}}}]),
        status(1999, 6, f"<p>Plain http video {clip}</p>", tags=[{"name": "clips"}], media_attachments=[{
            "type": "video", "url": "http://insecure.example/clip.mp4", "preview_url": PICTURES + "demo/images/36-640x360.svg",
            "meta": {"original": {"width": 640, "height": 360}}}]),
    ]


class Handler(JSONHandler):
    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path.endswith("/timelines/tag/stanford"):
            return self.answer(422, {"error": "This method requires an authenticated user"})
        # `#busy`: the rate limit spent, as mastodon.social answers then (its window resets in five minutes).
        reset = (datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(minutes=5)).strftime(
            "%Y-%m-%dT%H:%M:%S.000Z")
        if url.path.endswith("/timelines/tag/busy"):
            return self.answer(429, {"error": "Too many requests"}, {
                "X-RateLimit-Limit": "300", "X-RateLimit-Remaining": "0", "X-RateLimit-Reset": reset})
        if url.path.startswith("/api/v1/tags/"):
            return self.tag(url.path.rsplit("/", 1)[-1])
        if url.path.startswith("/api/v1/statuses/"):
            return self.thread(url.path[len("/api/v1/statuses/"):])
        if not url.path.startswith("/api/v1/timelines/tag/"):
            return self.answer(404, {"error": "Record not found"})
        max_id = int(query.get("max_id", ["9999999"])[0])
        min_id = int(query.get("min_id", ["0"])[0])
        timeline = {"clips": clips, "unindexed": unindexed, "threads": conversation}.get(url.path.rsplit("/", 1)[-1], statuses)()
        chosen = [s for s in timeline if min_id < int(s["id"]) < max_id]
        self.answer(200, chosen, {"X-RateLimit-Limit": "300", "X-RateLimit-Remaining": "297", "X-RateLimit-Reset": reset})


    def thread(self, path):
        """`GET /api/v1/statuses/:id` and `…/:id/context` (Mastodon's Context entity: ancestors root first,
        descendants depth first) for the `#threads` conversation."""
        statuses = {s["id"]: s for s in conversation()}
        number, _, context = path.partition("/")
        if number not in statuses:
            return self.answer(404, {"error": "Record not found"})
        if not context:
            return self.answer(200, statuses[number])
        ancestors, parent = [], statuses[number]["in_reply_to_id"]
        while parent in statuses:
            ancestors.insert(0, statuses[parent])
            parent = statuses[parent]["in_reply_to_id"]
        def below(of):
            for reply in sorted((s for s in statuses.values() if s["in_reply_to_id"] == of), key=lambda s: s["id"]):
                yield reply
                yield from below(reply["id"])
        self.answer(200, {"ancestors": ancestors, "descendants": list(below(number))})

    def tag(self, name):
        """Mastodon's Tag entity with its `history`, newest day first, as the server saw it: `#swift` only."""
        if name.lower() != "swift":
            return self.answer(404, {"error": "Record not found"})
        today = datetime.datetime.now(datetime.timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
        history = [{"day": str(int((today - datetime.timedelta(days=back)).timestamp())), "uses": str(uses),
                    "accounts": str(accounts)}
                   for back, (uses, accounts) in enumerate([(4, 3), (56, 53), (171, 142), (11, 11), (9, 8), (20, 8),
                                                            (11, 11)])]
        self.answer(200, {"name": name, "url": f"https://{HOST}/tags/{name}", "history": history, "following": False})


def start():
    """Serves on a free port of 127.0.0.1 in a daemon thread; returns the base URL."""
    return serve(Handler)
