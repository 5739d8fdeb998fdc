"""Starts the real smashtag server on a free port with a temporary data directory, for Playwright tests."""
import contextlib
import json
import os
import pathlib
import re
import sqlite3
import subprocess
import tempfile
import time
import urllib.parse

import pytest
from playwright.sync_api import expect, sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = ROOT / ".build" / "debug" / "smashtag"
ARTIFACTS = ROOT / "artifacts" / "screenshots"
CLUSTER = ROOT / "scripts" / "postgres-cluster"
SERVER_PIDS = []  # the running server's, for tests that watch its memory
VIEWPORTS = {"portrait": {"width": 390, "height": 844}, "landscape": {"width": 844, "height": 390}}

# Tweets that try to inject markup and script: they must render as inert text.
HOSTILE = {
    "data": [{
        "id": "1900000000000000001", "author_id": "9001", "created_at": "2025-03-01T12:00:00.000Z",
        "text": "&lt;script&gt;alert(1)&lt;/script&gt; \"quoted\" 'single' #xsstest https://t.co/evil",
        "entities": {
            "hashtags": [{"start": 56, "end": 64, "tag": "xsstest"}],
            "urls": [{"start": 65, "end": 82, "url": "https://t.co/evil", "expanded_url": "javascript:alert(2)", "display_url": "evil"}],
        },
    }, {
        "id": "1900000000000000002", "author_id": "9001", "created_at": "2025-03-01T12:01:00.000Z",
        "text": "plain words and nothing else xsstest",
    }],
    "includes": {"users": [{"id": "9001", "username": "mallory", "name": "<img src=x onerror=alert(3)>"}]},
    "meta": {"result_count": 2},
}


def free_port():
    import socket
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@contextlib.contextmanager
def postgres_cluster(prefix):
    """A PostgreSQL server of the test's own (Debian's, started by scripts/postgres-cluster), stopped afterwards:
    yields its directory and its URL."""
    directory = tempfile.mkdtemp(prefix=prefix)
    url = subprocess.run([str(CLUSTER), "start", directory, str(free_port())], check=True, capture_output=True,
                         text=True).stdout.strip()
    try:
        yield directory, url
    finally:
        subprocess.run([str(CLUSTER), "stop", directory], check=False)


@pytest.fixture(scope="session")
def data_dir():
    return tempfile.mkdtemp(prefix="smashtag-browser-")


@pytest.fixture(scope="session")
def server(data_dir):
    data = data_dir
    hostile = pathlib.Path(data) / "hostile.json"
    hostile.write_text(json.dumps(HOSTILE))
    subprocess.run([str(BINARY), "corpus", "generate", "--tweets", "3000", "--data-dir", data], check=True, capture_output=True)
    subprocess.run([str(BINARY), "import", str(hostile), "--data-dir", data], check=True, capture_output=True)
    process = subprocess.Popen([str(BINARY), "serve", "--port", "0", "--data-dir", data], stdout=subprocess.PIPE, text=True)
    url = None
    for line in process.stdout:
        match = re.search(r"running at (http://\S+/)", line)
        if match:
            url = match.group(1)
            break
    assert url, "the server did not start"
    SERVER_PIDS.append(process.pid)
    yield url
    process.terminate()
    assert process.wait(timeout=15) == 0, "the server did not shut down cleanly on SIGTERM"


def start_server(data, environment=None, options=(), stderr=None):
    """`smashtag serve` on a free port (with more options when given): its URL once it listens."""
    env = dict(os.environ, **(environment or {}))
    process = subprocess.Popen([str(BINARY), "serve", "--port", "0", "--data-dir", data, *options], stdout=subprocess.PIPE, stderr=stderr,
                               text=True, env=env)
    for line in process.stdout:
        match = re.search(r"running at (http://\S+/)", line)
        if match:
            return process, match.group(1)
    raise AssertionError("the server did not start")


@pytest.fixture(scope="session")
def merged_server():
    """A server searching the corpus, a stub Mastodon server and a stub Bluesky service together."""
    import stub_bluesky
    import stub_mastodon
    data = tempfile.mkdtemp(prefix="smashtag-merged-")
    subprocess.run([str(BINARY), "corpus", "generate", "--tweets", "2000", "--data-dir", data], check=True, capture_output=True)
    # The demo's posts without the living demo: its new `#swift` post every five seconds would push the stubs' posts
    # (one to four minutes old) off the first page after a few minutes of this session, and the tests would depend on
    # how long ago the server started.
    with contextlib.closing(sqlite3.connect(os.path.join(data, "corpus.sqlite"))) as corpus, corpus:
        corpus.execute("DELETE FROM info WHERE key = 'demo.seed'")
    process, url = start_server(data, {"SMASHTAG_MASTODON_INSTANCE": stub_mastodon.start(), **stub_bluesky.start()})
    stub_mastodon.PICTURES = stub_bluesky.PICTURES = url
    yield url
    process.terminate()
    assert process.wait(timeout=15) == 0


# Every uncaught script error and every console error of every page a test opens, as "URL: message": a test that
# leaves any fails (see `no_page_errors`), unless it says which it expects with `allow_page_errors`.
PAGE_ERRORS = []


def watch_for_errors(page):
    page.on("pageerror", lambda error: PAGE_ERRORS.append(f"{page.url}: uncaught {error.name}: {error.message}"))
    page.on("console", lambda message: message.type == "error" and PAGE_ERRORS.append(
        f"{page.url}: console error: {message.text}"))


class WatchedBrowser:
    """The browser, each of whose contexts reports its pages' errors into PAGE_ERRORS."""

    def __init__(self, browser):
        self._browser = browser

    def new_context(self, **options):
        context = self._browser.new_context(**options)
        context.on("page", watch_for_errors)
        return context

    def __getattr__(self, name):
        return getattr(self._browser, name)


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        yield WatchedBrowser(browser)
        browser.close()


@pytest.fixture
def allow_page_errors():
    """`allow_page_errors.append(pattern)`: console errors matching the regular expression are expected (a page the
    test means to fail to load, such as a 404, which the browser also logs). Uncaught script errors never are."""
    return []


@pytest.fixture(autouse=True)
def no_page_errors(request):
    PAGE_ERRORS.clear()
    yield
    allowed = request.node.funcargs.get("allow_page_errors", [])
    errors = [error for error in PAGE_ERRORS
              if ": uncaught " in error or not any(re.search(pattern, error) for pattern in allowed)]
    PAGE_ERRORS.clear()
    assert not errors, "errors on the pages this test opened:\n" + "\n".join(errors)


@pytest.fixture(params=list(VIEWPORTS))
def page(request, browser):
    context = browser.new_context(viewport=VIEWPORTS[request.param], has_touch=True, is_mobile=True, device_scale_factor=2)
    page = context.new_page()
    page.viewport_name = request.param
    dialogs = []
    page.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
    page.dialogs = dialogs
    yield page
    context.close()


@pytest.fixture
def no_js_page(browser):
    context = browser.new_context(viewport=VIEWPORTS["portrait"], java_script_enabled=False)
    page = context.new_page()
    page.no_js = True
    yield page
    context.close()


def screenshot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{getattr(page, 'viewport_name', 'nojs')}.png"), full_page=False)


# A row's post as the page's script reads it: a row that links names its post in the link's address
# (`…/network/id`), a row without a link in `data-post-id`.
POST_KEY = """row => {
  if (row.dataset.postId) return row.dataset.postId;
  const link = row.querySelector(":scope > a.row, :scope > .row > a.chevron");
  if (!link) return null;
  const [network, id] = link.pathname.split("/").slice(-2);
  return network + ":" + decodeURIComponent(id);
}"""


def post_key(row):
    """The post ("network:id") a row (a `li.post` locator) shows."""
    return row.evaluate(POST_KEY)


def post_keys(page, selector="li.post"):
    """The posts of every row `selector` finds, in order."""
    return page.eval_on_selector_all(selector, f"rows => rows.map({POST_KEY})")


def post_row(page, key, scope="li.post"):
    """The row (`scope`, a `li.post` by default) of the post `key` ("network:id")."""
    network, post_id = key.split(":", 1)
    path = f"/{network}/{urllib.parse.quote(post_id, safe='')}"
    own = f"> .row[href*='{path}?'], > .row[href$='{path}'], > .row > .chevron[href*='{path}?']"
    return page.locator(f"{scope}:is([data-post-id='{key}'], :has({own}))")


# How people move through the site: they open it, type a search and submit it, and tap links. Opening an address
# directly (`page.goto`) hides what the form and the links send, so it is only for a deep link tested as such.

def open_app(page, server):
    """Opens the site at its start, as a person opening the app from the home screen or a bookmark."""
    page.goto(server)
    return page


def search(page, query, submit="enter"):
    """Types `query` into the current page's search field, as typed (key by key, emoji and all), and submits it by
    pressing Enter or tapping the Search button; returns once the results page has loaded."""
    field = page.locator("form.search input[name=q]")
    field.fill("")
    field.press_sequentially(query)
    with page.expect_navigation():
        if submit == "enter":
            field.press("Enter")
        elif submit == "button":
            page.locator("form.search button[type=submit]").click()
        else:
            raise ValueError(submit)
    return page


def tap(page, target):
    """Taps a link or button (a selector or a locator) and waits for the page it opens to load."""
    locator = page.locator(target) if isinstance(target, str) else target
    with page.expect_navigation():
        locator.click()
    return page


def tap_tab(page, name):
    """Taps a tab of the tab bar: "Search" or "Recents"."""
    return tap(page, page.locator("nav.tabs a", has_text=name))


def load_more(page, which="older"):
    """Taps "Older posts" or "Newer posts". With JavaScript the rows come in place: this returns when the fetch is
    done (the script marks the link busy until then); without it, when the next page has loaded."""
    link = page.locator(f"a.{which}")
    if getattr(page, "no_js", False):
        return tap(page, link)
    parameter = "before=" if which == "older" else "since="
    with page.expect_response(lambda response: parameter in response.url):
        link.click()
    page.locator(f"a.{which}[data-busy]").wait_for(state="detached")
    expect(page.locator(".spinner")).to_be_hidden()
    return page


def next_frame(page):
    """Waits until the browser has drawn two more frames: a resize or an input event it was given has been handled."""
    page.evaluate("() => new Promise(done => requestAnimationFrame(() => requestAnimationFrame(done)))")


def wait_for(condition, timeout, interval=0.1, pause=time.sleep):
    """Checks `condition()` until it holds or `timeout` seconds pass; returns its last value. A bounded wait for a
    condition nothing else can wait on (a process's output, rows changing), never a fixed sleep."""
    deadline = time.monotonic() + timeout
    while True:
        value = condition()
        if value or time.monotonic() > deadline:
            return value
        pause(interval)


def wait_until(page, condition, timeout=5.0, interval=50):
    """`wait_for` on a page: the pauses (`interval` ms) let the page run meanwhile."""
    return wait_for(condition, timeout, interval, pause=page.wait_for_timeout)
