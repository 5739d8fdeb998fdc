"""Starts the real smashtag server on a free port with a temporary data directory, for Playwright tests."""
import json
import os
import pathlib
import re
import subprocess
import tempfile

import pytest
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parents[2]
BINARY = ROOT / ".build" / "debug" / "smashtag"
ARTIFACTS = ROOT / "artifacts" / "screenshots"
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
    process, url = start_server(data, {"SMASHTAG_MASTODON_INSTANCE": stub_mastodon.start(), **stub_bluesky.start()})
    stub_mastodon.PICTURES = stub_bluesky.PICTURES = url
    yield url
    process.terminate()
    assert process.wait(timeout=15) == 0


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=["--no-sandbox"])
        yield browser
        browser.close()


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
    yield page
    context.close()


def screenshot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}-{getattr(page, 'viewport_name', 'nojs')}.png"), full_page=False)
