"""Queries as a person types them (issue 33): typed key by key into the search field and submitted with Enter or the
Search button, with and without JavaScript, in portrait and landscape. A browser submits the GET form as
application/x-www-form-urlencoded (a space is `+`, a plus `%2B`): the page must show the query as typed.

The server trims a query and collapses its runs of spaces, so a page shows `" ".join(query.split())`."""
import re
import urllib.parse

import pytest

from conftest import open_app, post_key, post_row, search, tap, tap_tab

# (what is typed, whether the demo corpus has posts for it). `{user}` and `{word}` are read from the page first.
QUERIES = [
    ("#swift OR #travel", True),
    ("#stanford -#swift", True),
    ("from:{user} {word}", True),
    ("c++", False),
    ("rock & roll", False),
    ('"a phrase"', False),
    ("  #swift    OR   #travel  ", True),  # several spaces, leading and trailing too
    ("#coffee ☕", False),
    ("👩‍💻 🚀 launch", False),  # a ZWJ sequence
    ("#مصر OR #שבת", True),  # right-to-left hashtags the corpus has
    ("שלום עולם", False),
    ("#café OR #東京", True),
]
IDS = ["or", "exclude", "from-word", "c-plus-plus", "ampersand", "phrase", "spaces", "emoji", "emoji-zwj",
       "rtl-hashtags", "rtl-words", "accents-cjk"]
NOT_A = re.compile(r"is not a (hashtag|user name)|is not a filter|is not supported")


def shown(query):
    return " ".join(query.split())


def author_and_word(page):
    """A post's author and a plain word of its text, as the Search page shows them (a search for #swift)."""
    search(page, "#swift")
    for row in page.locator("li.post").all():
        if row.locator(".body > p.dim.small", has_text="↻").count():
            continue  # a repost: its text is someone else's
        who = row.locator(".body > p.who .dim").inner_text().split()[0]
        plain = row.locator(".body > p.text").evaluate(
            "p => [...p.childNodes].filter(n => n.nodeType === Node.TEXT_NODE).map(n => n.textContent).join(' ')")
        words = [word for word in re.findall(r"[A-Za-z]+", plain) if len(word) >= 4 and word != "OR"]
        if who.startswith("@") and words:
            return who[1:], words[0], post_key(row)
    pytest.fail("no post on the #swift page has an author and a plain word")


def hashtags(row):
    return {tag.lower() for tag in row.locator(".m-hashtag").all_inner_texts()}


def check_results(page, query, has_posts, expected_id=None):
    """The page shows the query as typed, says nothing about it not being a hashtag or user, and shows posts."""
    typed = shown(query)
    assert page.text_content("h1") == typed
    assert page.input_value("form.search input[name=q]") == typed
    assert page.title().startswith(typed + " · ")
    errors = page.locator(".error").all_inner_texts()
    assert errors == [], errors
    assert not NOT_A.search(page.text_content("main")), page.text_content("main")
    rows = page.locator("li.post")
    if has_posts:
        assert rows.count() > 0, f"no posts for {typed!r}"
    if typed == "#swift OR #travel":
        for row in rows.all():
            assert hashtags(row) & {"#swift", "#travel"}, row.inner_text()
    if typed == "#stanford -#swift":
        for row in rows.all():
            assert "#stanford" in hashtags(row) and "#swift" not in hashtags(row), row.inner_text()
    if expected_id:
        assert post_row(page, expected_id).count() == 1


def typed_search(page, server, query, has_posts, submit):
    open_app(page, server)
    expected_id = None
    if "{user}" in query:
        user, word, expected_id = author_and_word(page)
        query = query.format(user=user, word=word)
    search(page, query, submit)
    # What the browser sent, read back as a form decoder reads it: the query exactly as typed.
    sent = urllib.parse.parse_qs(urllib.parse.urlsplit(page.url).query, keep_blank_values=True)
    assert sent["q"] == [query], (page.url, query)
    check_results(page, query, has_posts, expected_id)
    # The term is in Recents as typed, and its row (a link the server wrote) searches it again.
    tap_tab(page, "Recents")
    assert page.locator("li.recent .term").first.inner_text() == shown(query)
    tap(page, page.locator("li.recent .term").first)
    check_results(page, query, has_posts, expected_id)


@pytest.mark.parametrize("submit", ["enter", "button"])
@pytest.mark.parametrize("query,has_posts", QUERIES, ids=IDS)
def test_a_typed_query_shows_as_typed(page, server, query, has_posts, submit):
    typed_search(page, server, query, has_posts, submit)


@pytest.mark.parametrize("submit", ["enter", "button"])
@pytest.mark.parametrize("query,has_posts", QUERIES, ids=IDS)
def test_a_typed_query_shows_as_typed_without_javascript(no_js_page, server, query, has_posts, submit):
    typed_search(no_js_page, server, query, has_posts, submit)


@pytest.mark.parametrize("address,query", [
    ("search?q=%23swift+OR+%23travel", "#swift OR #travel"),  # as a browser's form writes it
    ("search?q=%23swift%20OR%20%23travel", "#swift OR #travel"),  # as a hand-written link writes it
    ("search?q=c%2B%2B", "c++"),
    ("search?q=rock+%26+roll", "rock & roll"),
])
def test_deep_link_to_a_search_reads_its_query_as_a_form_sends_it(page, server, address, query):
    """A deep link (a search address shared or bookmarked): `+` is a space, `%2B` a plus."""
    page.goto(server + address)
    check_results(page, query, query == "#swift OR #travel")
