"""Three Mastodon-API servers in the recorded shapes, for the browser tests of several servers asked as one (issue
53): the first two answer as Mastodon, the third as GoToSocial (ULID ids, `/users/…/statuses/…` uris, tag timelines
only with a token). They share the posts of `#fediverse` under ids of their own: each post has one `uri` wherever it
is seen, and its author is `acct` without a host on their own server only. Each names itself by the address it
listens on (`127.0.0.1:port`), so that where a post was written and which server gave it name the same servers."""
import datetime
import urllib.parse

from stub_http import JSONHandler, serve

DOMAINS = ["a.example", "b.example", "c.example"]  # each its address once it listens
TOKEN = "token-for-gts"

# (number, written on, served by, author, minutes ago): the newest first.
POSTS = [
    (9, 0, [0, 1, 2], "alice", 1),
    (8, 1, [1, 0], "bob", 2),
    (7, 2, [2], "carol", 3),
    (6, 0, [0, 2], "alice", 4),
    (5, 1, [1], "dan", 5),
    (4, 2, [2, 1, 0], "carol", 6),
    (3, 0, [0], "erin", 7),
    (2, 1, [1, 2], "bob", 8),
    (1, 2, [2, 0], "carol", 9),
]


def local_id(server, number):
    """Each server's own id for a post: digits on Mastodon, a ULID's 26 characters on GoToSocial."""
    value = 100 * (server + 1) + number
    return "01HZ" + str(value).zfill(22) if server == 2 else str(value)


def uri(number, home, author):
    return f"https://{DOMAINS[home]}/users/{author}/statuses/{local_id(home, number)}"


def status(server, number, home, author, minutes_ago):
    created = datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(minutes=minutes_ago)
    host = DOMAINS[home]
    tag = f'<a href="https://{host}/tags/fediverse" class="mention hashtag" rel="tag">#<span>fediverse</span></a>'
    friend = "dan" if author != "dan" else "erin"
    mention = (f'<span class="h-card"><a href="https://{DOMAINS[1]}/@{friend}" class="u-url mention">@<span>{friend}'
               f'</span></a></span>')
    account = {"id": f"acc-{author}", "username": author, "acct": author if server == home else f"{author}@{host}",
               "display_name": author.title(), "url": f"https://{host}/@{author}", "avatar": ""}
    if server != 2:
        account["indexable"] = True
    home_id = local_id(home, number)
    return {
        "id": local_id(server, number), "uri": uri(number, home, author),
        "url": f"https://{host}/@{author}/" + (f"statuses/{home_id}" if home == 2 else home_id),
        "created_at": created.strftime("%Y-%m-%dT%H:%M:%S.000Z"),
        "content": f"<p>Post {number} from {host} {tag} with {mention}</p>", "account": account,
        "mentions": [{"id": f"acc-{friend}", "username": friend,
                      "acct": friend if server == 1 else f"{friend}@{DOMAINS[1]}", "url": f"https://{DOMAINS[1]}/@{friend}"}],
        "tags": [{"name": "fediverse"}], "media_attachments": [], "sensitive": False, "spoiler_text": "",
        "reblog": None, "in_reply_to_id": None, "replies_count": 0,
    }


def handler(server):
    class Handler(JSONHandler):
        def do_GET(self):
            url = urllib.parse.urlsplit(self.path)
            query = urllib.parse.parse_qs(url.query)
            if server == 2 and self.headers.get("Authorization") != f"Bearer {TOKEN}":
                return self.answer(401, {"error": "Unauthorized: token not supplied"})
            if url.path.startswith("/api/v1/tags/"):
                return self.tag(url.path.rsplit("/", 1)[-1])
            if url.path != "/api/v1/timelines/tag/fediverse":
                return self.answer(404, {"error": "Record not found"})
            served = [status(server, *post[:2], post[3], post[4]) for post in POSTS if server in post[2]]
            key = (lambda id: (len(id), id))
            if "max_id" in query:
                served = [s for s in served if key(s["id"]) < key(query["max_id"][0])]
            if "min_id" in query:
                served = [s for s in served if key(s["id"]) > key(query["min_id"][0])]
            served.sort(key=lambda s: key(s["id"]), reverse=True)
            self.answer(200, served[: int(query.get("limit", ["20"])[0])])

        def tag(self, name):
            """A Tag entity with the history this server saw (GoToSocial sends none)."""
            if name.lower() != "fediverse":
                return self.answer(404, {"error": "Record not found"})
            today = datetime.datetime.now(datetime.timezone.utc).replace(hour=0, minute=0, second=0, microsecond=0)
            history = [] if server == 2 else [
                {"day": str(int((today - datetime.timedelta(days=back)).timestamp())),
                 "uses": str((server + 1) * (back + 3)), "accounts": str(back + 2)} for back in range(7)]
            self.answer(200, {"name": name, "url": f"https://{DOMAINS[server]}/tags/{name}", "history": history})

    return Handler


def start():
    """The three servers, each on a free port of 127.0.0.1; returns their base URLs, a.example's first."""
    urls = [serve(handler(server)) for server in range(3)]
    for server, url in enumerate(urls):
        DOMAINS[server] = url.split("://", 1)[1]
    return urls
