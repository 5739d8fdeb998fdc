"""Stateless servers (issue 38): two servers on one PostgreSQL share the corpus too. A file imported through one is
found by a person searching on the other; the live index run by the elected server shows its posts on the other's
Search page within 2 seconds; killing the ingesting server hands ingest to the other with no post lost or doubled;
an SQLite corpus is copied across, resumably, and the demo is never mixed with real posts."""
import json
import os
import pathlib
import signal
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest

import stub_bluesky
from conftest import BINARY, CLUSTER, ROOT, open_app, screenshot, search, start_server, postgres_cluster, tap, wait_for
from test_live_index import AUTHORS, create

STUB_JETSTREAM = pathlib.Path(BINARY).parent / "stub-jetstream"


@pytest.fixture(scope="module")
def cluster_home():
    with postgres_cluster("smashtag-pg-shared-") as home:
        yield home


@pytest.fixture(scope="module")
def cluster(cluster_home):
    return cluster_home[1]


def new_database(cluster, name):
    """A database of its own in the module's cluster; its URL."""
    subprocess.run(["psql", cluster, "-qc", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    return cluster.rsplit("/", 1)[0] + "/" + name


def psql(url, sql):
    return subprocess.run(["psql", url, "-tAc", sql], check=True, capture_output=True, text=True).stdout.strip()


def stored(url):
    """How many posts the database's corpus holds (0 before its tables are made)."""
    answer = subprocess.run(["psql", url, "-tAc", "SELECT count(*) FROM corpus_post"], capture_output=True, text=True)
    return int(answer.stdout.strip() or 0) if answer.returncode == 0 else 0


def run(*arguments, env=None):
    return subprocess.run([str(BINARY), *arguments], capture_output=True, text=True, env=dict(os.environ, **(env or {})))


def api_ids(server, query):
    answer = urllib.request.urlopen(server + "api/search?count=100&q=" + urllib.parse.quote(query), timeout=10).read()
    return [post["id"] for post in json.loads(answer)["tweets"]]


@pytest.fixture(scope="module")
def two_demo_servers(cluster):
    url = new_database(cluster, "shared_demo")
    data = [tempfile.mkdtemp(prefix=f"smashtag-shared-{name}-") for name in "ab"]
    # The demo, generated into the database once by the first command that finds it empty.
    assert run("corpus", "generate", "--tweets", "1500", "--data-dir", data[0], "--database", url).returncode == 0
    servers = [start_server(directory, {"SMASHTAG_DATABASE_URL": url}) for directory in data]
    yield url, data, [server for _, server in servers]
    for process, _ in servers:
        process.terminate()
        assert process.wait(timeout=15) == 0


def test_a_file_imported_through_one_server_is_found_by_a_person_on_the_other(page, two_demo_servers):
    url, data, (first, second) = two_demo_servers
    tag = "shared" + page.viewport_name  # each viewport's run imports a file of its own
    open_app(page, second)
    search(page, "#" + tag)
    assert page.locator("li.post").count() == 0
    posts = {"data": [{"id": f"191000000000000{len(tag)}{i:02d}", "author_id": "77",
                       "created_at": f"2025-04-0{i}T12:00:00.000Z", "text": f"Imported once, found everywhere {i} #{tag}",
                       "entities": {"hashtags": [{"start": 34, "end": 35 + len(tag), "tag": tag}]}} for i in range(1, 4)],
             "includes": {"users": [{"id": "77", "username": "importer", "name": "Imported 東京"}]}}
    file = pathlib.Path(data[0]) / f"import-{tag}.json"
    file.write_text(json.dumps(posts))
    # Imported through the first server's data directory and database, as its operator would.
    imported = run("import", str(file), "--data-dir", data[0], env={"SMASHTAG_DATABASE_URL": url})
    assert imported.returncode == 0, imported.stderr
    search(page, "#" + tag, submit="button")
    rows = page.locator("li.post")
    assert rows.count() == 3
    assert rows.first.get_by_text("Imported 東京").count() == 1
    screenshot(page, "shared-corpus-import")
    search(page, f"from:importer {tag}")
    assert page.locator("li.post").count() == 3
    assert api_ids(first, "#" + tag) == api_ids(second, "#" + tag)


def test_both_servers_answer_every_query_shape_the_same(two_demo_servers):
    _, _, (first, second) = two_demo_servers
    for query in ["#swift", "from:" + "ana", "the", "#swift OR #travel", "\"good morning\"", "swift -#swift",
                  "filter:media -filter:retweets", "(#ai OR #ml) -from:bob"]:
        assert api_ids(first, query) == api_ids(second, query), query


def test_the_demo_is_never_copied_into_a_database_with_real_posts(cluster, two_demo_servers):
    url, data, _ = two_demo_servers
    real = new_database(cluster, "real_posts")
    file = next(pathlib.Path(data[0]).glob("import-*.json"))
    assert run("import", str(file), "--data-dir", tempfile.mkdtemp(), "--database", real).returncode == 0
    demo_dir = tempfile.mkdtemp(prefix="smashtag-demo-copy-")
    assert run("corpus", "generate", "--tweets", "300", "--data-dir", demo_dir).returncode == 0
    refused = run("corpus", "copy", "--to", real, "--data-dir", demo_dir)
    assert refused.returncode == 1
    assert "mix made-up posts into real ones" in refused.stderr, refused.stderr
    assert psql(real, "SELECT count(*) FROM corpus_post") == "3", "nothing was copied"


def test_the_demo_with_imported_posts_is_not_copied_into_a_database_holding_the_demo(two_demo_servers):
    """GUIDE: a corpus holding the demo is copied only into an empty database (issue 55: the demo plus imported posts
    went into a database that already held the demo)."""
    url, data, _ = two_demo_servers
    before = psql(url, "SELECT count(*) FROM corpus_post")
    demo_dir = tempfile.mkdtemp(prefix="smashtag-demo-plus-")
    assert run("corpus", "generate", "--tweets", "300", "--data-dir", demo_dir).returncode == 0
    file = next(pathlib.Path(data[0]).glob("import-*.json"))
    assert run("import", str(file), "--data-dir", demo_dir).returncode == 0
    refused = run("corpus", "copy", "--to", url, "--data-dir", demo_dir)
    assert refused.returncode == 1
    assert "copied only into an empty database" in refused.stderr, refused.stderr
    assert psql(url, "SELECT count(*) FROM corpus_post") == before, "nothing was copied"


def test_a_corpus_copy_killed_midway_resumes_and_copies_every_post_once(cluster):
    target = new_database(cluster, "copied")
    source = tempfile.mkdtemp(prefix="smashtag-copy-source-")
    assert run("corpus", "generate", "--tweets", "30000", "--data-dir", source).returncode == 0
    copying = subprocess.Popen([str(BINARY), "corpus", "copy", "--to", target, "--data-dir", source],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    copied = wait_for(lambda: stored(target) > 0 or copying.poll() is not None, 60)
    assert copied
    copying.send_signal(signal.SIGKILL)
    copying.wait(timeout=10)
    partial = int(psql(target, "SELECT count(*) FROM corpus_post"))
    resumed = run("corpus", "copy", "--to", target, "--data-dir", source)
    assert resumed.returncode == 0, resumed.stderr
    assert psql(target, "SELECT count(*) FROM corpus_post") == "30000"
    if partial < 30000:
        assert "resuming after" in resumed.stdout, resumed.stdout
    # The copy is searched as the original is, query by query.
    original = run("search", "#swift OR #travel", "--format", "json", "--count", "100", "--source", "corpus",
                   "--data-dir", source)
    shared = run("search", "#swift OR #travel", "--format", "json", "--count", "100", "--source", "corpus",
                 "--data-dir", tempfile.mkdtemp(), "--database", target)
    assert [p["id"] for p in json.loads(original.stdout)["tweets"]] == [p["id"] for p in json.loads(shared.stdout)["tweets"]]
    assert psql(target, "SELECT value FROM corpus_info WHERE key = 'demo.seed'"), "the copy holds the demo, and says so"


@pytest.fixture
def relay(cluster, page):
    """Two servers with `--ingest bluesky` on a fresh database, a stand-in Jetstream of 40 posts (one each 150 ms)
    and a stand-in AppView resolving their authors."""
    for did, (handle, name) in AUTHORS.items():
        stub_bluesky.PROFILES[did] = {"did": did, "handle": handle, "displayName": name, "avatar": ""}
    appview = stub_bluesky.start()["SMASHTAG_BLUESKY_SERVICE"]
    events = [create(i, list(AUTHORS)[i % 2], f"Relay post number {i}", "relay") for i in range(40)]
    events_file = pathlib.Path(tempfile.mkdtemp(prefix="smashtag-relay-")) / "events.jsonl"
    events_file.write_text("".join(json.dumps(event) + "\n" for event in events))
    jetstream = subprocess.Popen([str(STUB_JETSTREAM), str(events_file), "150"], stdout=subprocess.PIPE, text=True)
    jetstream_url = jetstream.stdout.readline().split("listening at ")[1].strip()
    url = new_database(cluster, "relay_" + page.viewport_name)
    environment = {"SMASHTAG_DATABASE_URL": url, "SMASHTAG_JETSTREAM_URL": jetstream_url,
                   "SMASHTAG_BLUESKY_APPVIEW": appview}
    servers = []
    for name in "ab":
        data = tempfile.mkdtemp(prefix=f"smashtag-relay-{name}-")
        log = pathlib.Path(data) / "server.log"
        process, server = start_server(data, environment, ["--ingest", "bluesky", "--log-level", "info"],
                                       stderr=log.open("w"))
        servers.append((process, server, log))
    yield url, events, servers
    for process, _, _ in servers:
        if process.poll() is None:
            process.terminate()
            process.wait(timeout=15)
    jetstream.kill()


def test_the_elected_ingester_feeds_every_server_and_a_killed_one_hands_over_without_loss(page, relay):
    url, events, servers = relay
    elected = lambda: [i for i, (_, _, log) in enumerate(servers) if "elected to run the live index" in log.read_text()]
    assert wait_for(lambda: len(elected()) == 1, 20), "one server was elected to ingest"
    ingester, other = servers[elected()[0]], servers[1 - elected()[0]]
    # A person on the other server searches while posts arrive: each shows there within 2 s of the ingesting
    # server's own answer having it.
    open_app(page, other[1])
    seen_by_ingester, seen_by_other = {}, {}
    def both_have(count):
        now = time.monotonic()
        for source, seen in ((ingester[1], seen_by_ingester), (other[1], seen_by_other)):
            for post in api_ids(source, "#relay"):
                seen.setdefault(post, now)
        return len(seen_by_other) >= count
    assert wait_for(lambda: both_have(10), 30, interval=0.05), "posts reached the other server"
    lags = [seen_by_other[post] - seen_by_ingester[post] for post in seen_by_other if post in seen_by_ingester]
    assert lags and max(lags) < 2, lags
    search(page, "#relay")
    assert page.locator("li.post").count() >= 10
    assert "kept by another server" in page.locator(".live-index").inner_text()
    screenshot(page, "shared-corpus-live")
    # The ingesting server dies mid-stream; the other takes over from the cursor in the database.
    ingester[0].send_signal(signal.SIGKILL)
    ingester[0].wait(timeout=10)
    assert wait_for(lambda: "elected to run the live index" in other[2].read_text(), 30), "the other server took over"
    assert wait_for(lambda: len(api_ids(other[1], "#relay")) == 40, 60, interval=0.25), "every post arrived"
    ids = api_ids(other[1], "#relay")
    assert len(set(ids)) == 40
    assert psql(url, "SELECT count(*) FROM corpus_post") == "40", "no post lost or doubled"
    search(page, "from:sky.example.com", submit="enter")
    assert page.locator("li.post").count() == 20, "authors resolved by the ingesting servers show on this one"


def test_a_search_while_the_database_is_away_says_so_and_the_next_one_finds_posts(page, cluster_home, two_demo_servers,
                                                                                  allow_page_errors):
    allow_page_errors.append(r"console error: Failed to load resource: .* status of 503")
    _, _, (_, second) = two_demo_servers
    directory, _ = cluster_home
    open_app(page, second)
    subprocess.run([str(CLUSTER), "halt", str(directory)], check=True)
    try:
        search(page, "#swift")
        assert "database cannot be reached" in page.text_content("main")
        status = urllib.request.Request(second + "api/search?q=%23swift")
        try:
            urllib.request.urlopen(status, timeout=10)
            raise AssertionError("the API answered while the database was away")
        except urllib.error.HTTPError as error:
            assert error.code == 503 and error.headers["Retry-After"] == "5"
    finally:
        subprocess.run([str(CLUSTER), "resume", str(directory)], check=True)
    # The person taps Back and tries again (a bounded number of times, as one would) until the posts are back.
    def found():
        if page.locator("form.search").count() == 0:
            tap(page, "header a.back")
            return False
        search(page, "#swift", submit="button")
        return page.locator("li.post").count() > 0
    assert wait_for(found, 20, interval=0.25)


def test_two_ingest_commands_on_one_database_index_once_and_the_second_takes_over(cluster):
    """`smashtag ingest bluesky --database`: the second command waits while the first indexes, and when the first is
    killed it resumes from the cursor in the database; every post is stored once."""
    events = [create(i, "did:plc:skyfire", f"Command line relay {i}", "clirelay") for i in range(30)]
    events_file = pathlib.Path(tempfile.mkdtemp(prefix="smashtag-cli-relay-")) / "events.jsonl"
    events_file.write_text("".join(json.dumps(event) + "\n" for event in events))
    jetstream = subprocess.Popen([str(STUB_JETSTREAM), str(events_file), "200"], stdout=subprocess.PIPE, text=True)
    try:
        jetstream_url = jetstream.stdout.readline().split("listening at ")[1].strip()
        url = new_database(cluster, "cli_relay")
        environment = dict(os.environ, SMASHTAG_JETSTREAM_URL=jetstream_url, SMASHTAG_BLUESKY_APPVIEW="http://127.0.0.1:9")
        def ingest():
            return subprocess.Popen([str(BINARY), "ingest", "bluesky", "--database", url, "--data-dir", tempfile.mkdtemp()],
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=environment)
        first = ingest()
        assert wait_for(lambda: stored(url) >= 3, 30), "the first command indexes"
        second = ingest()
        # One holds the live index's election lock (object 3 of Smashtag's class); the other waits for it.
        holders = "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 3 AND granted"
        assert wait_for(lambda: second.poll() is None and psql(url, holders) == "1", 5)
        before = stored(url)
        first.send_signal(signal.SIGKILL)
        first.wait(timeout=10)
        assert wait_for(lambda: stored(url) == 30, 60, interval=0.25), "the second took over and stored the rest"
        assert before < 30
        second.send_signal(signal.SIGINT)
        out, _ = second.communicate(timeout=30)
        assert second.returncode == 0
        assert "already stored" in out, out
        assert psql(url, "SELECT count(DISTINCT post_id) FROM corpus_post") == "30"
    finally:
        jetstream.kill()
