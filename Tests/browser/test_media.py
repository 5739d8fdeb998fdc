"""Every kind of media as people meet it on these networks (issue 33): Mastodon's video, GIF loop and audio, a
Bluesky video (an HLS playlist), descriptions as each picture's alt and behind an "ALT" badge, sensitive videos
blurred until tapped, and a page's policy letting media load only from where they play. Reached by typing `#clips`
into the Search field and tapping rows, in portrait and landscape, and without JavaScript."""
import json
import urllib.request

from axe_playwright_python.sync_playwright import Axe

from conftest import open_app, post_row, screenshot, search, tap

DESCRIBED = 'A <b>bold</b> claim & "quotes" <script>alert(1)</script>'


def row(page, key):
    return post_row(page, key)


def open_post(page, key):
    """Taps a row's way to its Mentions page: the row itself, or its chevron when a warning covers the text."""
    target = row(page, key)
    link = target.locator("a.row")
    tap(page, link if link.count() else target.locator("a.chevron"))
    return page


def clips(page, server):
    open_app(page, server)
    search(page, "#clips")
    return page


def test_a_mastodon_video_plays_in_place_with_its_still_and_its_description(page, merged_server):
    clips(page, merged_server)
    assert row(page, "mastodon:2004").locator(".play-note").inner_text() == "▶ 1 video 0:13"
    screenshot(page, "media-search")
    open_post(page, "mastodon:2004")
    video = page.locator("li.media video")
    assert video.count() == 1
    assert video.get_attribute("src") == "https://files.stub.example/cat.mp4"
    assert video.get_attribute("poster").endswith("/demo/images/31-1280x720.svg")
    assert video.get_attribute("preload") == "none" and video.get_attribute("playsinline") is not None
    assert video.get_attribute("controls") is not None and video.get_attribute("loop") is None
    assert video.get_attribute("aria-label") == "A grey cat chasing a red laser dot across a wooden floor"
    box = video.bounding_box()
    assert abs(box["width"] / box["height"] - 16 / 9) < 0.05, box  # the space reserved at the video's own ratio
    badge = page.locator("li.media details.alt")
    assert not badge.locator("p").is_visible()
    badge.locator("summary").click()
    assert badge.locator("p").inner_text() == "A grey cat chasing a red laser dot across a wooden floor"
    screenshot(page, "media-video-alt")


def test_the_page_lets_media_load_only_from_where_they_play(page, merged_server):
    clips(page, merged_server)
    with page.expect_response(lambda response: "/posts/mastodon/2004" in response.url) as answer:
        open_post(page, "mastodon:2004")
    policy = answer.value.headers["content-security-policy"]
    assert "media-src 'self' https://files.stub.example;" in policy, policy


def test_a_loop_is_muted_and_loops_and_a_sound_has_its_player(page, merged_server, allow_page_errors):
    # A loop plays at once, from the stand-in's file host, which no name resolves.
    allow_page_errors.append(r"console error: Failed to load resource: net::ERR_NAME_NOT_RESOLVED")
    clips(page, merged_server)
    open_post(page, "mastodon:2003")
    loop = page.locator("li.media video")
    assert loop.get_attribute("loop") is not None and loop.evaluate("v => v.muted")
    assert loop.get_attribute("aria-label").startswith("GIF 1 of @alice")
    page.go_back()
    open_post(page, "mastodon:2002")
    sound = page.locator("li.audio audio")
    assert sound.get_attribute("controls") is not None
    assert sound.get_attribute("src") == "https://files.stub.example/birds.mp3"
    assert sound.get_attribute("aria-label") == "Blackbird and robin, recorded at 5 am"


def test_descriptions_are_each_pictures_alt_and_a_picture_without_one_is_named(page, merged_server):
    clips(page, merged_server)
    open_post(page, "mastodon:2001")
    pictures = page.locator("li.image img")
    assert pictures.nth(0).get_attribute("alt") == DESCRIBED
    assert pictures.nth(1).get_attribute("alt").startswith("Image 2 of @alice")
    page.locator("li.image details.alt summary").click()
    assert page.locator("li.image details.alt p").inner_text() == DESCRIBED  # text, never markup
    assert page.dialogs == []
    screenshot(page, "media-alt-open")
    tap(page, pictures.nth(0).locator("xpath=.."))
    assert page.locator("#viewer-image").get_attribute("alt").startswith(DESCRIBED)


def test_a_sensitive_video_stays_blurred_until_tapped(page, merged_server):
    clips(page, merged_server)
    open_post(page, "mastodon:2000")
    video = page.locator("li.media video")
    assert "blur" in video.evaluate("v => getComputedStyle(v).filter")
    assert video.evaluate("v => getComputedStyle(v).pointerEvents") == "none"
    page.locator("details.sensitive summary").click()
    assert video.evaluate("v => getComputedStyle(v).filter") == "none"


def test_a_video_without_an_https_address_is_a_still(page, merged_server):
    clips(page, merged_server)
    open_post(page, "mastodon:1999")
    assert page.locator("video").count() == 0
    assert page.locator("li.image img").count() == 1


def test_a_bluesky_video_plays_where_the_browser_plays_hls_else_opens_on_bluesky(page, merged_server):
    clips(page, merged_server)
    bluesky = page.locator("li.post:has(> .row .net-bluesky)").first
    assert "▶ 1 video" in bluesky.inner_text()
    tap(page, bluesky.locator("a.row"))
    playlist = "https://video.bsky.app/watch/did%3Aplc%3Awave/bafyvideo/playlist.m3u8"
    if page.evaluate("document.createElement('video').canPlayType('application/vnd.apple.mpegurl')"):
        # This browser plays HLS itself (Safari, and Chromium builds that do): the video plays in place.
        video = page.locator("li.media video")
        assert video.get_attribute("src") == playlist and video.get_attribute("poster").endswith("37-1280x720.svg")
        assert video.get_attribute("aria-label") == "Waves breaking at sunset, seen from a cliff"
        assert page.locator("a.playlist").count() == 0
    else:
        # Elsewhere: the still, a play badge, and a link to the post on bsky.app.
        link = page.locator("a.playlist")
        assert link.get_attribute("href").startswith("https://bsky.app/profile/wave.bsky.social/post/")
        assert link.get_attribute("target") == "_blank" and "noopener" in link.get_attribute("rel")
        assert link.get_attribute("aria-label") == "Play Waves breaking at sunset, seen from a cliff on the post's network"
        assert link.locator(".badge.play").is_visible()
    screenshot(page, "media-bluesky-playlist")


def test_the_images_grid_names_every_picture_and_marks_what_plays(page, merged_server):
    clips(page, merged_server)
    tap(page, "a.images-link")
    cells = page.locator(".image-grid a.cell")
    assert cells.count() >= 6
    for cell in cells.all():
        assert cell.locator("img").get_attribute("alt"), cell.get_attribute("data-post-id")
    assert page.locator(".image-grid a.cell .badge.play").count() >= 3
    screenshot(page, "media-images-grid")


def test_the_json_twin_gives_each_mediums_kind_play_address_and_description(merged_server):
    with urllib.request.urlopen(merged_server + "api/search?q=%23clips&source=mastodon") as answer:
        posts = {post["id"]: post for post in json.load(answer)["tweets"]}
    video = posts["2004"]["media"][0]
    assert video["kind"] == "video" and video["playURL"] == "https://files.stub.example/cat.mp4"
    assert video["alt"] == "A grey cat chasing a red laser dot across a wooden floor" and video["url"].endswith(".svg")
    assert posts["2003"]["media"][0]["kind"] == "gifv"
    assert posts["2002"]["media"][0]["kind"] == "audio"
    assert "playURL" not in posts["1999"]["media"][0]
    assert posts["2001"]["media"][0]["alt"] == DESCRIBED and "alt" not in posts["2001"]["media"][1]


def test_media_pages_pass_axe_in_light_and_dark(browser, merged_server):
    for scheme in ["light", "dark"]:
        context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
        page = context.new_page()
        clips(page, merged_server)
        for key in ["mastodon:2004", "mastodon:2001", "mastodon:2000"]:
            open_post(page, key)
            result = Axe().run(page)
            assert result.violations_count == 0, (scheme, key, result.generate_report())
            page.go_back()
        context.close()


def test_media_work_without_javascript(no_js_page, merged_server):
    page = no_js_page
    clips(page, merged_server)
    open_post(page, "mastodon:2004")
    assert page.locator("li.media video[controls]").count() == 1
    page.locator("details.alt summary").click()
    assert page.locator("details.alt p").is_visible()
    page.go_back()
    tap(page, page.locator("li.post:has(> .row .net-bluesky)").first.locator("a.row"))
    # Without JavaScript nothing asks the browser whether it plays HLS: the link to the post on bsky.app.
    link = page.locator("a.playlist")
    assert link.get_attribute("href").startswith("https://bsky.app/profile/wave.bsky.social/post/")
    assert link.locator(".badge.play").is_visible()
    screenshot(page, "media-bluesky-playlist")
