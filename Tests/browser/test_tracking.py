"""Tracked terms as a person meets them: a term tracked from its Popularity page (interval chosen there) is marked on
Recents, its Popularity page says how it is tracked, and its counts move live while nobody searches — the demo keeps
posting on its trending hashtags and the tracker collects them; then it is untracked from its Recents row."""
import tempfile

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import BINARY, open_app, screenshot, search, start_server, tap, tap_tab

AXE = Axe()


@pytest.fixture(scope="module")
def tracking_server():
    """A server of its own (a 2,000-post demo that keeps posting), so no other test sees its tracked terms."""
    import subprocess
    data = tempfile.mkdtemp(prefix="smashtag-tracking-")
    subprocess.run([str(BINARY), "corpus", "generate", "--tweets", "2000", "--data-dir", data], check=True, capture_output=True)
    process, url = start_server(data)
    yield url
    process.terminate()
    assert process.wait(timeout=15) == 0


def test_a_tracked_term_moves_live_with_nobody_searching(page, tracking_server):
    open_app(page, tracking_server)
    term = page.locator("form.search input[name=q]").input_value()  # the demo's trending hashtag, shown first
    search(page, term)
    tap_tab(page, "Recents")
    row = page.locator(f"li.recent[data-term='{term}']")
    expect(row.locator("button", has_text="Track")).to_be_visible()
    tap(page, row.locator(".detail"))
    assert page.text_content("h1") == f"Popularity: {term}"

    page.locator("section.tracking select[name=every]").select_option(label="10 s")
    tap(page, page.locator("section.tracking button", has_text="Track"))
    status = page.locator("section.tracking .tracked-mark")
    expect(status).to_contain_text("Tracked · every 10 s")
    page.locator(".live:not([hidden])").wait_for(timeout=5000)
    counts = page.locator("section.popular li .count")
    before = counts.all_inner_texts()
    # The demo posts on its trending hashtags every few seconds; the tracker fetches them every 10 s. The rows move
    # without a reload and without a search (two intervals and the demo's pace, with room for a loaded machine).
    expect(counts).not_to_have_text(before, timeout=60_000)
    # The tracking line moves with them: the run that counted them is named, with the posts it brought.
    expect(status).to_contain_text("last fetched", timeout=30_000)
    screenshot(page, "tracking")
    assert AXE.run(page).response["violations"] == []

    tap_tab(page, "Recents")
    row = page.locator(f"li.recent[data-term='{term}']")
    expect(row.locator(".tracked-mark")).to_contain_text("tracked · every 10 s")
    assert row.get_attribute("data-tracked") is not None
    screenshot(page, "tracking-recents")
    assert AXE.run(page).response["violations"] == []
    tap(page, row.locator("button", has_text="Untrack"))
    row = page.locator(f"li.recent[data-term='{term}']")
    expect(row.locator(".tracked-mark")).to_have_count(0)
    expect(row.locator("button", has_text="Track")).to_be_visible()
