"""What another site can make a person's browser send to their own Smashtag: a page elsewhere (here on `localhost`,
another site than `127.0.0.1`) with a hundred `<img>` tags pointing at searches, the search API and the feed, which
once pushed every term out of Recents and wiped their counts. The searches are answered, and recorded nowhere."""
import json
import urllib.error
import urllib.parse
import urllib.request

import stub_http
from conftest import open_app, screenshot, search, tap, tap_tab


def another_site(html):
    """Serves `html` at http://localhost:PORT/ (a site other than 127.0.0.1) in a daemon thread; returns its URL."""
    class Page(stub_http.JSONHandler):
        def do_GET(self):
            self.send(200, "text/html; charset=utf-8", html.encode())

    return stub_http.serve(Page).replace("127.0.0.1", "localhost") + "/"


def state(server, term):
    """Recents and the term's counts, as a script reads them (None for a term not in Recents: a 404 that says so)."""
    with urllib.request.urlopen(server + "api/recents") as response:
        recents = json.load(response)
    try:
        with urllib.request.urlopen(server + "api/popularity?term=" + urllib.parse.quote(term)) as response:
            counts = json.load(response)
    except urllib.error.HTTPError as error:
        assert error.code == 404 and "is not in Recents" in json.load(error)["error"]
        counts = None
    return recents, counts


def test_a_hundred_searches_another_sites_images_send_leave_recents_and_counts_as_they_were(page, server,
                                                                                          allow_page_errors):
    search(open_app(page, server), "#swift")
    before = state(server, "#swift")
    assert before[0][0] == "#swift" and before[1]["hashtags"], "the person's term, counted"
    images = "".join(
        f'<img alt="" src="{server}{path}?q={urllib.parse.quote("#wipe" + str(number))}">'
        for number in range(101) for path in ["search", "recents/search", "api/search", "search/feed"])
    # Another site's page, opened as a person follows a link to it.
    page.goto(another_site(f"<!doctype html><title>Cute cats</title><p>Cats!</p>{images}"))
    # The browser blocks what comes back (HTML for an image), and says so in the console.
    allow_page_errors.append(r"localhost:\d+/: console error: Failed to load resource")
    page.wait_for_function("() => [...document.images].every(image => image.complete)", timeout=120_000)
    assert state(server, "#swift") == before
    # And the person sees their Recents as they left them (with the search the app opens on).
    open_app(page, server)
    tap_tab(page, "Recents")
    shown = page.locator("li.recent .term").all_inner_texts()
    assert "#swift" in shown and not [term for term in shown if term.startswith("#wipe")]


def test_a_search_another_site_links_to_is_shown_and_says_it_was_not_kept(page, server):
    """A link elsewhere to a search here: the person sees its posts, and a note that it is not in Recents until they
    search it here."""
    link = server + "search?q=" + urllib.parse.quote("#travel")
    before = state(server, "#travel")
    page.goto(another_site(f'<!doctype html><title>Links</title><a href="{link}">Travel posts</a>'))
    tap(page, "a")
    assert page.locator("li.post").count() > 0
    note = page.locator("p.unrecorded")
    assert "not kept in Recents" in note.inner_text()
    assert state(server, "#travel") == before
    screenshot(page, "search-from-another-site")
    search(page, "#travel")
    assert page.locator("p.unrecorded").count() == 0
    assert state(server, "#travel")[0][0] == "#travel"
