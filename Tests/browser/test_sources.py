"""Searching the corpus and Mastodon together: rows marked by network, posts shown as Mastodon shows them,
a failing source named while the other still shows, and source toggles remembered, with and without JavaScript."""
import io
import json
import urllib.request
import zipfile

from axe_playwright_python.sync_playwright import Axe

from conftest import ARTIFACTS, open_app, post_key, post_row, screenshot, search, tap, tap_tab, wait_until


AXE = Axe()


def choose_sources(page, *names):
    """Sets the source toggles of the search form on the page: those named on, the others off."""
    for toggle in page.locator("fieldset.sources input[name=source]").all():
        toggle.set_checked(toggle.get_attribute("value") in names)


def go(page, server, query, sources=None, submit="enter"):
    """Opens the app, chooses the sources when given, types the query and submits it."""
    open_app(page, server)
    if sources is not None:
        choose_sources(page, *sources)
    search(page, query, submit)


def test_a_merged_search_marks_each_row_with_its_network(page, merged_server):
    go(page, merged_server, "#swift")
    mastodon = page.locator("li.post:has(> .row .net-mastodon)")
    assert mastodon.count() == 4
    assert page.locator("li.post:has(> .row .net-twitter)").count() > 0
    assert mastodon.first.locator(".net").get_attribute("aria-label") == "Mastodon"
    first = mastodon.first
    assert "@bob@other.example" in first.inner_text() and "swift.org/blog…" in first.inner_text()
    warned = page.locator("li.post:has(> .row .net-mastodon) details.cw")
    assert warned.count() == 1 and not warned.first.locator("p.text").is_visible()
    warned.first.locator("summary").click()  # opens in place: no navigation
    assert warned.first.locator("p.text").is_visible()
    assert "boosted by @alice" in page.locator("li.post:has(> .row .net-mastodon)").nth(2).inner_text()
    assert "The original thought" in page.locator("li.post:has(> .row .net-mastodon) blockquote.quoted").inner_text()
    assert page.locator("fieldset.sources input[name=source]").count() == 3
    screenshot(page, "merged-search")


def test_bluesky_posts_show_with_their_images_quotes_and_link_previews(page, merged_server):
    go(page, merged_server, "#swift")
    bluesky = page.locator("li.post:has(> .row .net-bluesky)")
    assert bluesky.count() == 3
    assert bluesky.first.locator(".net").get_attribute("aria-label") == "Bluesky"
    assert "🦋 Pictures from the conference" in bluesky.first.inner_text()
    assert bluesky.first.locator("span.m-hashtag").inner_text() == "#swift"
    assert "The quoted thought" in bluesky.nth(1).locator("blockquote.quoted").inner_text()
    assert "Swift.org blog" in bluesky.nth(2).locator(".card").inner_text()
    bluesky.first.scroll_into_view_if_needed()
    screenshot(page, "merged-search-bluesky")
    bluesky.nth(2).scroll_into_view_if_needed()
    screenshot(page, "merged-search-bluesky-quote-and-card")
    tap(page, bluesky.first.locator("a.row"))
    pictures = page.locator("li.image img")
    assert pictures.count() == 2
    for picture in pictures.all():
        # Loaded and decoded: its natural width is known (a broken image's is 0).
        expect_loaded(picture)
    assert page.locator("a[data-mention=user]").first.inner_text() == "@sky.bsky.social"


def test_a_post_whose_author_has_not_opted_in_to_search_is_shown_and_counted_but_not_kept(page, merged_server):
    go(page, merged_server, "#unindexed", sources=["mastodon"])
    rows = page.locator("li.post:has(> .row .net-mastodon)")
    assert rows.count() == 2
    erin, frank = rows.nth(0), rows.nth(1)
    assert "Only for my followers' eyes" in erin.inner_text()
    assert "Not kept: its author has not opted in to search." in erin.inner_text()
    assert erin.locator("a.row").count() == 0, "no Mentions page: nothing of it is kept to show"
    assert "Not kept" not in frank.inner_text() and frank.locator("a.row").count() == 1
    screenshot(page, "search-not-indexable")
    # Counted like any post: both name #garden.
    with urllib.request.urlopen(merged_server + "api/popularity?term=%23unindexed") as answer:
        table = json.load(answer)
    assert {row["mention"]: row["count"] for row in table["hashtags"]}.get("#garden") == 2
    # Never exported: the dataset holds Frank's post and says one was left out.
    with urllib.request.urlopen(merged_server + "api/popularity/posts?term=%23unindexed") as answer:
        lines = [json.loads(line) for line in answer.read().decode().splitlines()]
    assert [line["user"]["screenName"] for line in lines] == ["frank@stub.example"]
    with urllib.request.urlopen(merged_server + "api/popularity/posts?term=%23unindexed&format=csv") as answer:
        with zipfile.ZipFile(io.BytesIO(answer.read())) as archive:
            package = json.loads(archive.read(next(n for n in archive.namelist() if n.endswith("datapackage.json"))))
            posts = archive.read(next(n for n in archive.namelist() if n.endswith("posts.csv"))).decode()
    assert package["collection"]["postsWithheld"] == 1 and package["collection"]["posts"] == 1
    assert "erin" not in posts.lower() and "followers' eyes" not in posts


def test_sensitive_media_stays_blurred_until_tapped(page, merged_server):
    go(page, merged_server, "#swift")
    tap(page, "li.post:has(> .row .net-mastodon):has(details.cw) a.chevron")
    toggle = page.locator("details.sensitive")
    image = page.locator("li.image img")
    assert toggle.count() == 1 and "blur" in image.evaluate("i => getComputedStyle(i).filter")
    screenshot(page, "sensitive-media-blurred")
    where = page.url
    box = image.bounding_box()
    # The toggle covers the blurred picture: tapping the picture shows it, it does not open it.
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + min(box["height"] / 2, 120))
    assert page.url == where and toggle.get_attribute("open") is not None
    assert image.evaluate("i => getComputedStyle(i).filter") == "none"
    toggle.locator("summary").click()
    assert "blur" in image.evaluate("i => getComputedStyle(i).filter")


def test_an_image_of_unknown_size_is_sized_when_it_loads(page, merged_server):
    go(page, merged_server, "#swift", submit="button")
    tap(page, page.locator("li.post:has(> .row .net-mastodon)").first.locator("a.row"))
    image = page.locator("li.image img")
    expect_loaded(image)
    assert image.get_attribute("height") == "200" and image.get_attribute("width") == "600"
    box = image.bounding_box()
    assert abs(box["width"] / box["height"] - 3) < 0.05


def test_a_failing_source_is_named_and_the_other_still_shows(page, merged_server):
    go(page, merged_server, "#stanford")
    failure = page.locator("ul.failures")
    assert "hides hashtag timelines from visitors who are not signed in" in failure.inner_text()
    assert page.locator("li.post:has(> .row .net-twitter)").count() > 0
    screenshot(page, "merged-search-failing-source")


def test_toggles_choose_the_sources_and_are_remembered(page, merged_server):
    go(page, merged_server, "#swift")
    page.uncheck("fieldset.sources input[value=mastodon]")
    search(page, "#swift", submit="button")
    assert "source=corpus" in page.url
    assert page.locator("li.post:has(> .row .net-mastodon)").count() == 0
    # Remembered: the Search tab's start shows the choice, and a search from a link (a Recents row, which says no
    # sources) searches the sources chosen last.
    tap_tab(page, "Search")
    assert not page.is_checked("fieldset.sources input[value=mastodon]")
    tap_tab(page, "Recents")
    tap(page, "li.recent .term:text-is('#swift')")
    assert page.locator("li.post:has(> .row .net-mastodon)").count() == 0
    assert page.locator("li.post:has(> .row .net-twitter)").count() > 0
    assert not page.is_checked("fieldset.sources input[value=mastodon]")
    page.check("fieldset.sources input[value=mastodon]")
    search(page, "#swift", submit="button")
    assert "source=mastodon" in page.url
    # Not all four of the stub's: the demo's tweeter adds #swift posts while the tests run, and a page of 20 rows in
    # time order can lose the oldest (a boost, placed by its original's time half an hour ago).
    assert page.locator("li.post:has(> .row .net-mastodon)").count() > 0


def test_sources_work_without_javascript(no_js_page, merged_server):
    page = no_js_page
    go(page, merged_server, "#stanford")
    assert "hides hashtag timelines" in page.locator("ul.failures").inner_text()
    page.uncheck("fieldset.sources input[value=mastodon]")
    tap(page, "form.search button[type=submit]")
    assert page.locator("ul.failures").count() == 0
    go(page, merged_server, "#swift", sources=["mastodon"], submit="button")
    assert page.locator("li.post").count() == page.locator("li.post:has(> .row .net-mastodon)").count() == 4
    page.locator("details.cw summary").click()
    assert page.locator("details.cw p.text").is_visible()
    screenshot(page, "merged-search")


def test_merged_search_fits_320_pixels_in_dark_mode(browser, merged_server):
    context = browser.new_context(viewport={"width": 320, "height": 640}, color_scheme="dark")
    page = context.new_page()
    go(page, merged_server, "#stanford", sources=["corpus", "mastodon"])
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    assert page.locator("ul.failures").is_visible()
    page.screenshot(path=str(ARTIFACTS / "merged-search-failing-320-dark.png"))
    search(page, "#swift")
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.screenshot(path=str(ARTIFACTS / "merged-search-320-dark.png"))
    context.close()


def expect_loaded(image):
    """Waits (bounded) until an image has loaded: a broken one never gets a natural width."""
    image.scroll_into_view_if_needed()  # a lazy image loads once a person scrolls to it
    loaded = lambda: image.evaluate("i => i.complete && i.naturalWidth > 0")
    assert wait_until(image.page, loaded), image.get_attribute("src")


def test_a_terms_volume_before_collecting_is_one_tap_from_its_popularity_page(page, merged_server):
    go(page, merged_server, "#swift", sources=["corpus", "mastodon"])
    tap_tab(page, "Recents")
    tap(page, page.locator("li.recent[data-term='#swift'] .detail"))
    tap(page, page.locator("p.actions a", has_text="Volume"))
    assert page.text_content("h1") == "Volume: #swift"
    section = page.locator("div.volume section")
    assert section.count() == 1 and section.locator("h2").inner_text().startswith("Mastodon (127.0.0.1:")
    assert "282 posts, as 127.0.0.1:" in section.inner_text() and "saw them in its last 7 days" in section.inner_text()
    rows = section.locator("tr")
    assert rows.count() == 8, "a header and seven days, newest first"
    assert rows.nth(1).locator("td").nth(1).inner_text() == "4" and rows.nth(2).locator("td").nth(2).inner_text() == "53"
    assert "Bluesky cannot count" not in page.inner_text("body"), "only the networks that can are named"
    screenshot(page, "volume")
    assert AXE.run(page).response["violations"] == []
    # The JSON twin, as a script reads it.
    with urllib.request.urlopen(merged_server + "api/volume?term=%23swift") as answer:
        report = json.load(answer)
    assert [volume["posts"] for volume in report["volumes"]] == [282] and report["errors"] == []


def test_a_mastodon_reply_opens_its_thread_from_its_server(page, merged_server):
    """Issue 52: a Mastodon reply's thread comes from its server's `context`: the question above, the answer marked,
    the thanks below; a reply whose parent was deleted says so in the parent's place."""
    go(page, merged_server, "#threads", sources=["mastodon"])
    answer = post_row(page, "mastodon:4002")
    tap(page, answer.locator("a.thread"))
    assert page.locator("p.thread-source").inner_text().startswith("From Mastodon (127.0.0.1:")
    assert "How do I wait for several tasks" in page.locator("ol.thread-above").inner_text()
    assert post_key(page.locator("li.post.focus")) == "mastodon:4002"
    assert "Thanks, that settles it" in page.locator("ol.replies").inner_text()
    screenshot(page, "thread-mastodon")
    tap(page, page.locator("ol.thread-above li.post a.row").first)
    assert post_key(page.locator("li.post.focus")) == "mastodon:4001"
    replies = page.locator("h2.thread-heading + ol.replies > li.post")
    assert [post_key(replies.nth(i)) for i in range(replies.count())] == [
        "mastodon:4002", "mastodon:4004"]
    assert post_row(page, "mastodon:4003", "ol.replies ol.replies li.post").count() == 1, "indented below"
    page.go_back()
    page.go_back()
    tap(page, post_row(page, "mastodon:4005").locator("a.thread"))
    assert page.locator("ol.thread-above li.gap").inner_text() == "A post that is no longer available."
