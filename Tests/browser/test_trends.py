"""Feeds and trends as a person meets them: a search's RSS feed read by a real feed reader's parser, a Popularity row's
sparkline opening its mention's chart, and the chart in light and dark mode at 390×844."""
import json
import urllib.request

import feedparser

from conftest import open_app, screenshot, search, tap, tap_tab


def test_a_feed_reader_reads_the_search_feed_the_page_links_to(page, server):
    search(open_app(page, server), "#stanford")
    href = page.get_attribute("link[rel=alternate][type='application/rss+xml']", "href")
    assert href == "/search/feed?q=%23stanford"
    # feedparser fetches it as a reader does, with its own HTTP client.
    feed = feedparser.parse(server.rstrip("/") + href)
    assert not feed.bozo, feed.get("bozo_exception")
    assert feed.status == 200 and feed.headers["content-type"] == "application/rss+xml; charset=utf-8"
    assert feed.version == "rss20" and feed.feed.title == "#stanford · Smashtag"
    assert 0 < len(feed.entries) <= 20
    times = [entry.published_parsed for entry in feed.entries]
    assert times == sorted(times, reverse=True), "newest first"
    for entry in feed.entries:
        assert entry.id.startswith("twitter:") and entry.link.startswith("https://")
        assert entry.author and entry.title
        assert "#stanford" in entry.summary.lower() and "<a href=" in entry.summary
    # Polling again with what it was given, the reader is told nothing changed. The living demo posts on #stanford
    # every few seconds, so a poll may follow a new post: it then gets the new feed under a new tag, and polls again.
    for _ in range(3):
        again = feedparser.parse(server.rstrip("/") + href, etag=feed.etag, modified=feed.modified)
        if again.status == 304:
            break
        assert again.status == 200 and again.etag != feed.etag, "a changed feed comes with a new tag"
        feed = again
    assert again.status == 304 and not again.entries


def test_a_popularity_count_opens_its_chart_in_light_and_dark(browser, server):
    term = "#stanford"
    for scheme in ["light", "dark"]:
        context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme, device_scale_factor=2)
        page = context.new_page()
        search(open_app(page, server), term)
        tap_tab(page, "Recents")
        tap(page, f"li.recent[data-term='{term}'] .detail")
        assert page.text_content("h1") == f"Popularity: {term}"
        first = page.locator("section.popular li").first
        assert first.locator("svg.spark polyline").count() == 1
        count = int(first.locator(".count").inner_text())
        mention = first.locator(".name").inner_text()
        tap(page, first.locator("a.trend"))
        assert "/recents/popularity/trend?" in page.url
        assert page.text_content("h1") == f"Trend: {mention}"
        chart = page.locator("svg.chart")
        assert chart.get_attribute("role") == "img"
        assert mention in page.text_content("svg.chart title#chart-title")
        box = chart.bounding_box()
        assert box["width"] > 300 and box["height"] > 150, box
        bars = page.locator("svg.chart rect.bar")
        assert bars.count() in (30, 48)
        # The page, its table and its JSON twin say the same: the counts add up to the popularity count.
        table = sum(int(cell) for cell in page.locator(".counts td:nth-child(2)").all_text_contents())
        api = json.load(urllib.request.urlopen(server.rstrip("/") + page.get_attribute("a:text('JSON')", "href")))
        assert sum(point["count"] for point in api["points"]) == count
        assert table <= count
        fill = page.eval_on_selector("svg.chart rect.bar", "e => getComputedStyle(e).fill")
        background = page.eval_on_selector("body", "e => getComputedStyle(e).backgroundColor")
        assert fill != background
        page.viewport_name = scheme
        screenshot(page, "trend-chart")
        tap(page, "nav.buckets a:text('By hour')")
        assert page.locator("svg.chart rect.bar").count() == 48
        context.close()
