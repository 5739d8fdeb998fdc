"""`smashtag serve --ingest bluesky`: posts arrive from a stand-in Jetstream while the page is open, by authors the
stand-in AppView resolves; the Search page says the index is live, and the posts are found by tag and by author."""
import contextlib
import json
import os
import pathlib
import subprocess
import tempfile
import time

import pytest

import stub_bluesky
from conftest import BINARY, open_app, screenshot, search, start_server

STUB_JETSTREAM = pathlib.Path(BINARY).parent / "stub-jetstream"
AUTHORS = {"did:plc:skyfire": ("sky.example.com", "Sky Firehose"), "did:plc:riofire": ("rio.example.com", "Rio 🌊")}


def create(index, did, text, tag):
    start = len(text.encode()) + 1
    record = {"$type": "app.bsky.feed.post", "text": f"{text} #{tag}", "langs": ["en"],
              "createdAt": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
              "facets": [{"index": {"byteStart": start, "byteEnd": start + len(tag) + 1},
                          "features": [{"$type": "app.bsky.richtext.facet#tag", "tag": tag}]}]}
    return {"did": did, "time_us": int(time.time() * 1_000_000) + index, "kind": "commit",
            "commit": {"rev": f"r{index}", "operation": "create", "collection": "app.bsky.feed.post",
                       "rkey": f"3lfire{index:07d}", "cid": f"bafy{index}", "record": record}}


@pytest.fixture(scope="module")
def live_server():
    with running_live_server() as url:
        yield url


@contextlib.contextmanager
def running_live_server():
    """`serve --ingest bluesky` on a stand-in Jetstream sending six posts, one every 400 ms: its URL."""
    for did, (handle, name) in AUTHORS.items():
        stub_bluesky.PROFILES[did] = {"did": did, "handle": handle, "displayName": name, "avatar": ""}
    appview = stub_bluesky.start()["SMASHTAG_BLUESKY_SERVICE"]
    texts = ["Fresh from the firehose 🔥", "東京 — live, no account needed", "<b>not bold</b> & still text",
             "Counting every post once", "The sixth is the last"]
    events = [create(i, list(AUTHORS)[i % 2], texts[i % len(texts)], "firehose") for i in range(6)]
    events_file = pathlib.Path(tempfile.mkdtemp(prefix="smashtag-jetstream-")) / "events.jsonl"
    events_file.write_text("".join(json.dumps(event) + "\n" for event in events))
    # One event every 400 ms: the last ones arrive while the page is open.
    jetstream = subprocess.Popen([str(STUB_JETSTREAM), str(events_file), "400"], stdout=subprocess.PIPE, text=True)
    url = jetstream.stdout.readline().split("listening at ")[1].strip()
    data = tempfile.mkdtemp(prefix="smashtag-live-")
    process, server = start_server(data, {"SMASHTAG_JETSTREAM_URL": url, "SMASHTAG_BLUESKY_APPVIEW": appview},
                                   ["--ingest", "bluesky"])
    try:
        yield server
    finally:
        process.terminate()
        jetstream.kill()
    assert process.wait(timeout=15) == 0, "the server (and its live index) did not stop cleanly"


def rows_after_searching(page, query, count, timeout=15):
    """Types the query and submits it, and again (as a person waiting for posts does) until `count` rows show or
    `timeout` seconds pass; the number of rows shown."""
    deadline = time.monotonic() + timeout
    search(page, query)
    while page.locator("li.post").count() < count and time.monotonic() < deadline:
        page.wait_for_timeout(250)  # the interval between tries, not a wait for the result
        search(page, query, submit="button")
    return page.locator("li.post").count()


def test_posts_arrive_live_and_are_found_by_tag_and_resolved_author(page, live_server):
    open_app(page, live_server)
    assert rows_after_searching(page, "#firehose", 6) == 6
    note = page.locator(".live-index").inner_text()
    assert "Live index of Bluesky: 6 posts" in note, note
    assert page.locator("li.post", has_text="Sky Firehose").count() == 3
    assert page.locator("li.post", has_text="<b>not bold</b> & still text").count() == 1, "markup shown as text"
    assert page.dialogs == []
    screenshot(page, "live-index")
    assert rows_after_searching(page, "from:rio.example.com", 3) == 3
    assert page.locator("li.post", has_text="Rio 🌊").count() == 3
