"""Several Mastodon servers asked as one (issue 53), as a person meets it: three stand-in servers — the third answering
as GoToSocial, which shows tag timelines only with the token — share the posts of `#fediverse` under ids of their own.
A search shows each post once, saying on how many servers it was seen; its Mentions page names them and links to its
own server's page; the term's Popularity page breaks its posts down by server; its Volume page has each server's own
history. A list with a bad name stops the server at start with one sentence."""
import os
import subprocess
import tempfile

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

import stub_fleet
from conftest import BINARY, open_app, screenshot, search, start_server, tap, tap_tab
from test_datasets import described_zip, read_zip

AXE = Axe()


@pytest.fixture(scope="module")
def fleet_server():
    """A server searching a small corpus and the three stand-ins as one Mastodon source."""
    urls = stub_fleet.start()
    data = tempfile.mkdtemp(prefix="smashtag-fleet-")
    subprocess.run([str(BINARY), "corpus", "generate", "--tweets", "200", "--data-dir", data], check=True,
                   capture_output=True)
    process, url = start_server(data, {
        "SMASHTAG_MASTODON_INSTANCES": ",".join(urls), "SMASHTAG_MASTODON_INSTANCE": urls[2],
        "SMASHTAG_MASTODON_TOKEN": stub_fleet.TOKEN})
    yield url
    process.terminate()
    assert process.wait(timeout=15) == 0


def seen_counts():
    """On how many servers each post of `#fediverse` was seen, newest first."""
    return [f"Seen on {len(post[2])} server{'s' if len(post[2]) > 1 else ''}" for post in stub_fleet.POSTS]


def test_each_post_once_seen_on_its_servers_and_the_breakdown_by_server(page, fleet_server):
    search(open_app(page, fleet_server), "#fediverse")
    expect(page.locator("form.search label", has_text="Mastodon (3 servers)")).to_be_visible()
    rows = page.locator("li.post:has(> .row .net-mastodon)")
    expect(rows).to_have_count(len(stub_fleet.POSTS))
    assert rows.locator("p.seen").all_inner_texts() == seen_counts()
    first = rows.first
    expect(first.locator(".who strong")).to_have_text("Alice")
    expect(first.locator(".who .dim")).to_contain_text(f"@alice@{stub_fleet.DOMAINS[0]}")
    screenshot(page, "fleet-search")
    assert AXE.run(page).response["violations"] == []

    tap(page, first.locator("a.row"))
    section = page.locator("section.mentions", has=page.locator("h2", has_text="Seen on 3 servers"))
    expect(section.locator("li")).to_have_count(4)
    assert section.locator("li .item").all_inner_texts()[:3] == stub_fleet.DOMAINS
    own = section.locator("a", has_text=f"Open it on {stub_fleet.DOMAINS[0].split(':')[0]}")
    assert own.get_attribute("href") == f"https://{stub_fleet.DOMAINS[0]}/@alice/109"
    assert own.get_attribute("target") == "_blank"
    screenshot(page, "fleet-mentions")
    assert AXE.run(page).response["violations"] == []

    tap_tab(page, "Recents")
    tap(page, "li.recent[data-term='#fediverse'] .detail")
    expect(page.locator("p.origins")).to_have_text("From 9 posts, all from Mastodon.")
    table = page.locator("section.servers table")
    cells = [[cell.strip() for cell in row.split("\t")] for row in table.locator("tr").all_inner_texts()]
    written = {domain: sum(1 for post in stub_fleet.POSTS if stub_fleet.DOMAINS[post[1]] == domain)
               for domain in stub_fleet.DOMAINS}
    gave = {domain: sum(1 for post in stub_fleet.POSTS if index in post[2])
            for index, domain in enumerate(stub_fleet.DOMAINS)}
    assert cells[0] == ["Server", "Written on", "Gave it"]
    assert {row[0]: (int(row[1]), int(row[2])) for row in cells[1:]} == {
        domain: (written[domain], gave[domain]) for domain in stub_fleet.DOMAINS}
    page.locator("section.servers").scroll_into_view_if_needed()
    screenshot(page, "fleet-popularity")
    assert AXE.run(page).response["violations"] == []

    # The dataset carries the same breakdown (`servers.csv`), and each post the servers that gave it.
    page.locator("details.dataset-box summary").click()
    page.locator("details.dataset-box select[name=format]").select_option("csv")
    with page.expect_download() as download:
        page.locator("details.dataset-box button", has_text="Download").click()
    tables = read_zip(open(download.value.path(), "rb").read())
    assert {row["server"]: (int(row["written"]), int(row["gave"])) for row in tables["servers.csv"]} == {
        domain: (written[domain], gave[domain]) for domain in stub_fleet.DOMAINS}
    described_zip(download.value.path(), len(stub_fleet.POSTS))

    tap(page, page.locator("p.actions a", has_text="Volume"))
    titles = page.locator("section h2").all_inner_texts()
    assert titles == [f"Mastodon ({domain})" for domain in stub_fleet.DOMAINS]
    assert AXE.run(page).response["violations"] == []


def test_the_dark_landscape_popularity_page_keeps_the_servers_table_readable(browser, fleet_server):
    context = browser.new_context(viewport={"width": 844, "height": 390}, color_scheme="dark", device_scale_factor=2,
                                  has_touch=True)
    with context:
        page = context.new_page()
        page.viewport_name = "dark-landscape"
        search(open_app(page, fleet_server), "#fediverse")
        tap_tab(page, "Recents")
        tap(page, "li.recent[data-term='#fediverse'] .detail")
        table = page.locator("section.servers table")
        table.scroll_into_view_if_needed()
        box = table.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 844
        screenshot(page, "fleet-popularity")
        assert AXE.run(page).response["violations"] == []


def test_a_list_with_a_bad_name_stops_the_server_at_start():
    data = tempfile.mkdtemp(prefix="smashtag-fleet-bad-")
    result = subprocess.run(
        [str(BINARY), "serve", "--port", "0", "--data-dir", data], capture_output=True, text=True, timeout=60,
        env=dict(os.environ, SMASHTAG_MASTODON_INSTANCES="mastodon.social,mastodon.social/@alice"))
    assert result.returncode != 0
    assert ("SMASHTAG_MASTODON_INSTANCES names “mastodon.social/@alice”, which is not a server: write host names such "
            "as mastodon.social,fosstodon.org, separated by commas.") in result.stderr
