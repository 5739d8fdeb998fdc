"""Two servers on one PostgreSQL (a throwaway cluster of this module's own, so it can be stopped): a search on
one server shows on the other's live Popularity page; one server runs the demo tweeter; when the database goes away
pages answer 503 and the servers recover by themselves when it returns."""
import pathlib
import subprocess
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from playwright.sync_api import expect

from conftest import BINARY, CLUSTER, ROOT, open_app, postgres_cluster, screenshot, search, start_server, tap, tap_tab

@pytest.fixture(scope="module")
def cluster():
    with postgres_cluster("smashtag-pg-browser-") as (directory, url):
        yield directory, url


@pytest.fixture(scope="module")
def two_servers(cluster):
    _, url = cluster
    data = tempfile.mkdtemp(prefix="smashtag-pg-servers-")
    # The demo corpus, into the database the servers share (as `serve` would on first start, smaller).
    subprocess.run([str(BINARY), "corpus", "generate", "--tweets", "2000", "--data-dir", data, "--database", url], check=True,
                   capture_output=True)
    logs = [pathlib.Path(data) / f"server-{name}.log" for name in "ab"]
    servers = [start_server(data, {"SMASHTAG_DATABASE_URL": url}, ["--log-level", "info"], stderr=log.open("w")) for log in logs]
    yield [server for _, server in servers], logs
    for process, _ in servers:
        process.terminate()
        assert process.wait(timeout=15) == 0


def status_of(url):
    try:
        return urllib.request.urlopen(url, timeout=10).status
    except urllib.error.HTTPError as error:
        return error.code


def test_a_search_on_one_server_shows_live_on_the_others_popularity_page(page, two_servers):
    (first, second), logs = two_servers
    term = {"portrait": "#swift", "landscape": "#AI"}[page.viewport_name]
    # Someone types the term on the first server (a page of its own, in the same browser)...
    other = page.context.new_page()
    search(open_app(other, first), term)
    assert other.text_content("h1") == term
    other.close()
    # ...and it is in the second server's Recents (one database), whose detail button opens its Popularity.
    tap_tab(open_app(page, second), "Recents")
    tap(page, f"li.recent[data-term='{term}'] .detail")
    page.locator(".live:not([hidden])").wait_for(timeout=5000)
    rows = page.locator("section.popular li")
    before = rows.all_inner_texts()
    assert before, "the first server's counts are on the second server's page"
    # More of the term's posts, fetched through the first server by another client (its JSON API, 100 at once): the
    # second server's page changes within a second.
    started = time.monotonic()
    urllib.request.urlopen(first + "api/search?q=" + urllib.parse.quote(term) + "&count=100").read()
    expect(rows).not_to_have_text(before, use_inner_text=True, timeout=5000)
    assert rows.all_inner_texts() != before
    assert time.monotonic() - started < 2
    screenshot(page, "popularity-across-servers")
    elected = [log.read_text().count("elected to run the demo tweeter") for log in logs]
    assert sorted(elected) == [0, 1], "one server runs the demo tweeter"


def test_pages_answer_503_while_the_database_is_away_and_recover_by_themselves(page, cluster, two_servers,
                                                                              allow_page_errors):
    allow_page_errors.append(r"console error: Failed to load resource: .* status of 503")
    directory, _ = cluster
    (first, second), _ = two_servers
    recents = second + "recents"
    assert status_of(recents) == 200
    open_app(page, second)  # the app is open when the database goes away
    subprocess.run([str(CLUSTER), "halt", directory], check=True)
    try:
        assert status_of(recents) == 503
        tap_tab(page, "Recents")
        assert "database cannot be reached" in page.text_content("main")
        assert page.dialogs == []
    finally:
        subprocess.run([str(CLUSTER), "resume", directory], check=True)
    term = {"portrait": "#cs193p", "landscape": "#stanford"}[page.viewport_name]
    quoted = urllib.parse.quote(term)
    for _ in range(40):  # a bounded poll (10 s) for the servers to recover by themselves
        if status_of(recents) == 200 and status_of(first + "search?q=" + quoted) == 200:
            break
        time.sleep(0.25)
    assert status_of(recents) == 200
    # Live pages come back too: the person taps Recents again and opens the term's Popularity (the term the first
    # server searched after the restart); a search on the first server reaches the page.
    tap_tab(page, "Recents")
    tap(page, f"li.recent[data-term='{term}'] .detail")
    page.locator(".live:not([hidden])").wait_for(timeout=5000)
    rows = page.locator("section.popular li")
    before = rows.all_inner_texts()
    urllib.request.urlopen(first + "api/search?q=" + quoted + "&count=100").read()
    expect(rows).not_to_have_text(before, use_inner_text=True, timeout=4000)
    assert rows.all_inner_texts() != before
