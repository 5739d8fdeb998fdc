"""The web app as a person meets it (Search, Mentions and Recents), at 390×844 portrait and 844×390 landscape: every
search typed into the field and submitted, every other page reached by tapping (see README.md)."""
import re
import urllib.request

from playwright.sync_api import expect

from conftest import (
    load_more, next_frame, open_app, post_key, post_keys, post_row, screenshot, search, tap, tap_tab, wait_until)


def colour(page, selector):
    return page.eval_on_selector(selector, "e => getComputedStyle(e).color")


def test_search_root_shows_tweets_with_three_mention_colours(page, server):
    open_app(page, server)
    assert page.input_value("input[name=q]")  # a default query on first visit
    assert page.get_attribute("input[name=q]", "placeholder") == "Search"
    assert page.text_content("h1") == page.input_value("input[name=q]")
    assert page.locator("li.post").count() > 5
    hashtag = colour(page, "ol.posts .m-hashtag")
    user = colour(page, "ol.posts .m-user")
    link = colour(page, "ol.posts .m-url") if page.locator("ol.posts .m-url").count() else colour(page, ".legend .m-url")
    text = colour(page, "ol.posts .text")
    assert len({hashtag, user, link, text}) == 4
    assert page.locator(".legend .m-hashtag").count() == 1
    assert page.locator("a.back").count() == 0 and page.locator("a.root").count() == 0
    screenshot(page, "search")


def test_no_horizontal_scrolling_and_touch_targets(page, server):
    open_app(page, server)
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    for selector in [".tabs a", "form.search button", "form.search input", "a.older"]:
        for box in [element.bounding_box() for element in page.locator(selector).all()]:
            assert box["height"] >= 44, selector


def test_only_rows_with_mentions_or_images_open_the_mentions_page(page, server):
    open_app(page, server)
    for row in page.locator("li.post").all():
        has_content = row.locator(".m").count() > 0 or "image" in row.inner_text()
        assert (row.locator("a.row").count() == 1) == has_content
    search(page, "xsstest")
    plain = post_row(page, "twitter:1900000000000000002")
    assert plain.locator("a.row").count() == 0 and plain.locator(".chevron").count() == 0


def test_mentions_page_sections_in_order_without_empty_ones(page, server):
    search(open_app(page, server), "filter:media #stanford")
    tap(page, "li.post a.row >> nth=0")
    title = page.text_content("h1")
    assert title.startswith("@")
    headings = page.locator("section.mentions h2").all_text_contents()
    assert headings == [h for h in ["Images", "Hashtags", "Users", "URLs", "Conversation"] if h in headings]
    assert headings[-1] == "Conversation"
    assert "Images" in headings and "Users" in headings
    for section in page.locator("section.mentions").all():
        assert section.locator("li").count() > 0
    assert page.locator("section.mentions:has(h2:text('Users')) li").first.inner_text() == title
    image = page.locator("li.image img").first
    box = image.bounding_box()
    assert box["height"] > 50  # height reserved from the aspect ratio
    # The first picture leaves room for the page around it: in landscape it once filled the whole screen.
    viewport = page.viewport_size
    assert box["height"] <= 0.85 * viewport["height"] or page.viewport_name == "portrait", box
    assert box["x"] >= 0 and box["x"] + box["width"] <= viewport["width"] + 1, box
    assert page.locator("a.back").count() == 1 and page.locator("a.root").count() == 1
    screenshot(page, "mentions")


def test_a_reply_opens_its_thread_by_tapping(page, server):
    """Issue 52: "Show thread" under a reply opens the conversation: the posts it answers above, the reply itself
    marked, its replies below, indented; an ancestor opens its own thread, and the marked post its Mentions page."""
    search(open_app(page, server), "filter:replies")
    row = page.locator("li.post:has(a.thread)").first
    post_id = post_key(row)
    tap(page, row.locator("a.thread"))
    assert page.text_content("h1") == "Thread"
    focus = page.locator("li.post.focus")
    assert focus.count() == 1 and focus.get_attribute("aria-current") == "true"
    assert post_key(focus) == post_id
    assert page.locator("p.thread-source").inner_text() == "From the corpus."
    above = page.locator("ol.thread-above > li")
    assert above.count() >= 1, "a reply answers something: a post, or a row saying it is not available"
    assert page.locator("h2.thread-heading").inner_text().lower() == "replies"
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    for link in page.locator("ol.thread-above a.row, ol.replies a.row").all():
        assert link.bounding_box()["height"] >= 44
    screenshot(page, "thread")
    parent = page.locator("ol.thread-above li.post:has(a.row)").last
    if parent.count():
        parent_id = post_key(parent)
        tap(page, parent.locator("a.row"))
        assert post_key(page.locator("li.post.focus")) == parent_id
        assert post_row(page, post_id, "ol.replies li.post").count() == 1, "the reply is below it"
        screenshot(page, "thread-parent")
        page.go_back()
        page.locator("li.post.focus").wait_for()
    if focus.locator("a.row").count():
        tap(page, focus.locator("a.row"))
        assert page.locator("section.mentions h2", has_text="Conversation").count() == 1
        tap(page, page.locator("section.mentions a.item", has_text="Show thread"))
        assert post_key(page.locator("li.post.focus")) == post_id


def test_a_thread_in_dark_mode(browser, server):
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark", device_scale_factor=2)
    page = context.new_page()
    page.viewport_name = "dark"
    search(open_app(page, server), "filter:replies")
    tap(page, page.locator("li.post a.thread").first)
    focus = page.locator("li.post.focus")
    background = page.eval_on_selector("li.post.focus", "e => getComputedStyle(e).backgroundColor")
    body = page.eval_on_selector("body", "e => getComputedStyle(e).backgroundColor")
    assert focus.count() == 1 and background != body, "the post itself stands out in dark mode too"
    screenshot(page, "thread")
    context.close()


def test_a_search_that_finds_nothing_says_so_and_offers_no_newer_posts(page, server):
    search(open_app(page, server), "#nothingeverpostedthis")
    assert page.locator("p.empty").inner_text() == "No posts."
    assert page.locator("a.newer").count() == 0 and page.locator("a.older").count() == 0
    screenshot(page, "search-empty")


def test_the_icons_are_drawn_in_the_texts_colour_not_taken_from_a_font(page, server):
    search(open_app(page, server), "#stanford")
    tap_tab(page, "Recents")
    for link in page.locator("nav.tabs a").all() + [page.locator("li.recent .detail").first]:
        icon = link.locator("i.icon")
        assert icon.count() == 1
        assert not set(link.inner_text()) & set("⌕◷⤒ⓘ▦")
        # The stylesheet's drawing (a mask) over the link's own colour, at the size of its text.
        assert icon.evaluate("icon => getComputedStyle(icon).backgroundColor") == link.evaluate(
            "link => getComputedStyle(link).color")
        assert icon.evaluate("icon => getComputedStyle(icon).maskImage").startswith('url("data:image/svg+xml')
        box = icon.bounding_box()
        assert box["width"] > 10 and box["height"] > 10


def test_tapping_a_hashtag_searches_for_it_in_the_same_tab(page, server):
    search(open_app(page, server), "#stanford", submit="button")
    tap(page, "li.post a.row >> nth=0")
    hashtag = page.locator("section.mentions [data-mention=hashtag]").first
    tag = hashtag.inner_text()
    tap(page, hashtag)
    assert page.input_value("input[name=q]") == tag
    assert page.get_attribute(".tabs a[aria-current=page]", "href") == "/search"
    tap(page, "a.back")
    assert page.text_content("h1").startswith("@")


def test_tapping_a_user_searches_mentions_or_posts(page, server):
    search(open_app(page, server), "#stanford")
    tap(page, "li.post a.row >> nth=0")
    user = page.locator("section.mentions [data-mention=user]").first.inner_text()
    tap(page, page.locator("section.mentions [data-mention=user]").first)
    assert page.input_value("input[name=q]") == f"{user} OR from:{user[1:]}"
    assert page.text_content("h1") == f"{user} OR from:{user[1:]}"
    assert page.locator(".error").count() == 0 and page.locator("li.post").count() > 0


def test_recents_keep_their_own_stack_and_delete_by_post(page, server):
    search(open_app(page, server), "#swift")
    search(page, "#stanford", submit="button")
    tap_tab(page, "Recents")
    terms = page.locator("li.recent .term").all_inner_texts()
    assert terms[:2] == ["#stanford", "#swift"]
    screenshot(page, "recents")
    tap(page, "li.recent .term:text-is('#swift')")
    assert page.get_attribute(".tabs a[aria-current=page]", "href") == "/recents"
    tap(page, "li.post a.row >> nth=0")
    assert page.get_attribute(".tabs a[aria-current=page]", "href") == "/recents"
    tap(page, "a.root")
    assert page.url.endswith("/recents")
    tap(page, page.locator("li.recent[data-term='#swift'] button", has_text="Delete"))
    assert "#swift" not in page.locator("li.recent .term").all_inner_texts()
    assert page.locator("li.recent .detail").first.get_attribute("href").startswith("/recents/popularity?term=")


def test_a_post_without_the_csrf_token_is_refused(server):
    request = urllib.request.Request(server + "recents/delete", data=b"term=%23stanford", method="POST")
    try:
        urllib.request.urlopen(request)
        assert False, "accepted"
    except urllib.error.HTTPError as error:
        assert error.code == 403
        assert "default-src 'self'" in error.headers["Content-Security-Policy"]


def test_older_and_newer_never_show_a_tweet_twice(page, server):
    search(open_app(page, server), "#stanford")
    before = page.locator("li.post").count()
    load_more(page, "older")
    assert page.locator("li.post").count() > before
    load_more(page, "newer")
    ids = post_keys(page)
    assert len(ids) == len(set(ids))


def test_hostile_text_renders_inert(page, server):
    search(open_app(page, server), "#xsstest")
    row = post_row(page, "twitter:1900000000000000001")
    assert "<script>alert(1)</script>" in row.inner_text()
    assert "<img src=x onerror=alert(3)>" in row.inner_text()
    tap(page, row.locator("a.row"))
    link = page.locator("section.mentions [data-mention=url]")
    assert link.get_attribute("href") is None  # a javascript: link is text, never a link
    page.wait_for_load_state("load")  # every script the page holds has run (and images have failed) by now
    next_frame(page)
    assert page.dialogs == []


def test_the_app_works_without_javascript(no_js_page, server):
    page = no_js_page
    search(open_app(page, server), "#swift")
    assert page.text_content("h1") == "#swift"
    ids = post_keys(page)
    load_more(page, "older")
    older = post_keys(page)
    assert older and not set(older) & set(ids)
    tap_tab(page, "Recents")
    assert "#swift" in page.locator("li.recent .term").all_inner_texts()
    screenshot(page, "search-no-js")


def luminance(rgb):
    def channel(c):
        c = c / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = rgb
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def rgb(css):
    return tuple(int(part) for part in css[css.index("(") + 1:css.index(")")].split(",")[:3])


def contrast(a, b):
    high, low = sorted([luminance(rgb(a)), luminance(rgb(b))], reverse=True)
    return (high + 0.05) / (low + 0.05)


def test_mention_colours_are_aa_in_light_and_dark(browser, server):
    seen = {}
    for scheme in ["light", "dark"]:
        context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
        page = context.new_page()
        open_app(page, server)
        background = page.eval_on_selector("body", "e => getComputedStyle(e).backgroundColor")
        colours = [colour(page, f".legend .m-{kind}") for kind in ["hashtag", "user", "url"]] + [colour(page, "ol.posts .text")]
        assert len(set(colours)) == 4, scheme
        for value in colours:
            assert contrast(value, background) >= 4.5, (scheme, value, background)
        seen[scheme] = (background, colours)
        page.viewport_name = scheme
        screenshot(page, "search-colour-scheme")
        context.close()
    assert seen["light"][0] != seen["dark"][0]


def test_a_failed_search_says_why_and_offers_a_retry(page, server):
    search(open_app(page, server), "(#swift OR")
    assert page.text_content("h1") == "(#swift OR" and page.input_value("input[name=q]") == "(#swift OR"
    assert "“OR” at character 9 needs something to search for after it." in page.inner_text(".error")
    assert page.locator(".error a.button:text('Try again')").count() == 1
    assert page.locator("li.post").count() == 0


def test_no_horizontal_scrolling_at_320_pixels(browser, server):
    context = browser.new_context(viewport={"width": 320, "height": 640})
    page = context.new_page()
    fits = "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    search(open_app(page, server), "#stanford")
    assert page.evaluate(fits), "search"
    tap_tab(page, "Recents")
    assert page.evaluate(fits), "recents"
    tap_tab(page, "Search")
    search(page, "filter:media #stanford")
    tap(page, "li.post a.row >> nth=0")
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth")
    context.close()


def test_json_twins(server):
    import json
    document = json.load(urllib.request.urlopen(server + "api/search?q=%23stanford&count=5"))
    assert document["query"] == "#stanford" and len(document["tweets"]) == 5
    tweet = document["tweets"][0]
    assert {"id", "created", "user", "text", "mentions", "media"} <= set(tweet)
    scalars = list(tweet["text"])
    for mention in tweet["mentions"]:
        assert "".join(scalars[mention["start"]:mention["end"]]) == mention["keyword"]
    older = json.load(urllib.request.urlopen(server + f"api/search?q=%23stanford&count=5&before={document['older']}"))
    assert not {t["id"] for t in older["tweets"]} & {t["id"] for t in document["tweets"]}
    assert json.load(urllib.request.urlopen(server + "api/posts/" + tweet["network"] + "/" + tweet["id"]))["id"] == tweet["id"]
    assert "#stanford" in json.load(urllib.request.urlopen(server + "api/recents"))
    try:
        urllib.request.urlopen(server + "api/search?q=%28")
        assert False
    except urllib.error.HTTPError as error:
        assert error.code == 400 and "never closed" in json.load(error)["error"]


def test_popularity_updates_live_when_the_cli_searches(page, server, data_dir):
    import subprocess
    from conftest import BINARY
    # A term of its own per viewport: tweets fetched again never change a count.
    term = {"portrait": "#nasa", "landscape": "#AI"}[page.viewport_name]
    search(open_app(page, server), term)
    tap_tab(page, "Recents")
    tap(page, f"li.recent[data-term='{term}'] .detail")
    assert page.text_content("h1") == f"Popularity: {term}"
    headings = page.locator("section.popular h2").all_text_contents()
    assert headings == [h for h in ["Hashtags", "Users"] if h in headings]
    page.locator(".live:not([hidden])").wait_for(timeout=5000)
    rows = page.locator("section.popular li")
    before = rows.all_inner_texts()
    # Where the counted posts came from: the demo is X-shaped.
    origins = page.locator("p.origins")
    counted = origins.inner_text()
    assert re.fullmatch(r"From [\d,]+ posts, all from X\.", counted), counted
    screenshot(page, "popularity")
    # Another process fetches more tweets for the term: the page changes within 3 seconds, without a reload.
    subprocess.run([str(BINARY), "search", term, "--older", "--count", "100", "--data-dir", data_dir], check=True, capture_output=True)
    expect(rows).not_to_have_text(before, use_inner_text=True, timeout=3000)
    assert rows.all_inner_texts() != before
    expect(origins).not_to_have_text(counted, timeout=3000)
    for row in page.locator("section.popular li").all():
        assert row.locator("a.item").get_attribute("data-mention") in ("hashtag", "user")
        assert int(row.locator("a.trend .count").inner_text()) > 1
        assert row.locator("a.trend svg.spark polyline").count() == 1


def fills(box, width, height):
    """Aspect-filled: one side equal to the viewport (±2 px), the other at least as large, centred."""
    wide = abs(box["width"] - width) <= 2 and box["height"] >= height - 2
    tall = abs(box["height"] - height) <= 2 and box["width"] >= width - 2
    centred = abs(box["x"] + box["width"] / 2 - width / 2) <= 2 and abs(box["y"] + box["height"] / 2 - height / 2) <= 2
    return (wide or tall) and centred


def open_viewer(page, server):
    search(open_app(page, server), "filter:media #stanford")
    tap(page, "li.post a.row >> nth=0")
    tap(page, "li.image a >> nth=0")
    page.locator(".scripted > #viewer-image").wait_for()  # loaded, and the script has fitted it
    next_frame(page)
    return page.locator("#viewer-image")


def resize(page, size):
    """Turns the phone (or resizes the window) and waits until the page has handled the resize."""
    page.set_viewport_size(size)
    next_frame(page)


def test_the_viewer_fills_the_screen_and_refits_until_zoomed(page, server):
    image = open_viewer(page, server)
    size = page.viewport_size
    assert fills(image.bounding_box(), size["width"], size["height"])
    screenshot(page, "viewer")
    turned = {"width": size["height"], "height": size["width"]}
    resize(page, turned)
    assert wait_until(page, lambda: fills(image.bounding_box(), turned["width"], turned["height"]))
    page.mouse.move(turned["width"] / 2, turned["height"] / 2)
    page.mouse.wheel(0, -400)
    bigger = lambda box: box["width"] > turned["width"] + 10 and box["height"] > turned["height"] + 10
    assert wait_until(page, lambda: bigger(image.bounding_box())), image.bounding_box()
    resize(page, size)
    after = image.bounding_box()
    assert not fills(after, size["width"], size["height"])  # zoomed: no refit
    assert after["x"] <= 0.5 and after["y"] <= 0.5  # and never leaves empty space
    assert after["x"] + after["width"] >= size["width"] - 0.5 and after["y"] + after["height"] >= size["height"] - 0.5


def test_the_viewer_pans_within_the_image(page, server):
    image = open_viewer(page, server)
    size = page.viewport_size
    page.mouse.dblclick(size["width"] / 2, size["height"] / 2)
    assert wait_until(page, lambda: image.bounding_box()["width"] > size["width"] + 10 and image.bounding_box()["height"] > size["height"] + 10)
    before = image.bounding_box()
    page.mouse.move(size["width"] / 2, size["height"] / 2)
    page.mouse.down()
    page.mouse.move(size["width"] / 2 + 5000, size["height"] / 2 + 5000, steps=5)
    page.mouse.up()
    after = image.bounding_box()
    assert after["x"] <= 0.5 and after["y"] <= 0.5  # dragged as far as it goes: the corner stops at the corner
    assert after["x"] >= before["x"]


def test_installable_on_a_home_screen(page, server):
    import json
    open_app(page, server)
    manifest_url = page.get_attribute("link[rel=manifest]", "href")
    manifest = json.load(urllib.request.urlopen(server.rstrip("/") + manifest_url))
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/search" and manifest["name"]
    assert page.get_attribute("meta[name=theme-color]", "content") == manifest["theme_color"]
    for icon in manifest["icons"]:
        data = urllib.request.urlopen(server.rstrip("/") + icon["src"]).read()
        width = int.from_bytes(data[16:20], "big")
        assert data[:8] == b"\x89PNG\r\n\x1a\n" and icon["sizes"] == f"{width}x{width}"
    assert "viewport-fit=cover" in page.get_attribute("meta[name=viewport]", "content")
    # Chromium's own installability check, the one Lighthouse reports.
    cdp = page.context.new_cdp_session(page)
    # Playwright's contexts are incognito windows, where Chromium installs nothing: that one is about the browser.
    # Chromium answers once it has fetched the manifest and its icons: asked until then, it lists what it lacks.
    errors = lambda: [error for error in cdp.send("Page.getInstallabilityErrors")["installabilityErrors"] if error["errorId"] != "in-incognito"]
    assert wait_until(page, lambda: errors() == []), errors()


def image_counts(page):
    """Each shown tweet's number of images, from its row."""
    counts = {}
    for row in page.locator("li.post").all():
        text = row.inner_text()
        number = 0
        for word, following in zip(text.split(), text.split()[1:]):
            if following in ("image", "images") and word.isdigit():
                number = int(word)
        counts[post_key(row)] = number
    return counts


def test_the_images_grid_shows_every_image_of_the_loaded_results(page, server):
    search(open_app(page, server), "#swift")
    load_more(page, "older")
    expected = image_counts(page)
    tap(page, "a.images-link")
    cells = page.eval_on_selector_all(".image-grid a.cell", "cells => cells.map(c => c.dataset.postId)")
    assert len(cells) == sum(expected.values()) and len(cells) > 0
    assert {tweet for tweet, count in expected.items() if count} == set(cells)
    first = page.locator(".image-grid img").first.bounding_box()
    page.fill(".cell-size input", "20")
    page.dispatch_event(".cell-size input", "input")
    assert page.locator(".image-grid img").first.bounding_box()["width"] != first["width"]
    screenshot(page, "images")
    page.reload()
    assert page.input_value(".cell-size input") == "20"  # remembered
    tap(page, ".image-grid a.cell >> nth=0")
    assert page.locator("li.post").count() == 1
    assert page.locator("li.post a.row").count() == 1 and page.locator("a.back").count() == 1
