"""A team's Smashtag: people added with `smashtag user add`, each signing in on the sign-in page and seeing only
what their role allows; a server on every address refusing to start with no one added; two servers on one
PostgreSQL accepting one sign-in."""
import http.cookiejar
import json
import os
import pathlib
import re
import subprocess
import tempfile
import urllib.error
import urllib.parse
import urllib.request

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import expect

from conftest import BINARY, open_app, screenshot, search, start_server, tap, tap_tab

AXE = Axe()
PASSWORDS = {"vera": "viewer password 1", "rhea": "researcher password 2", "ada": "admin password 333"}
ROLES = {"vera": "viewer", "rhea": "researcher", "ada": "admin"}


def add_person(name, data, database=()):
    """`smashtag user add NAME --role ROLE`, the password given on standard input as a script would."""
    subprocess.run([str(BINARY), "user", "add", name, "--role", ROLES[name], "--data-dir", data, *database],
                   input=PASSWORDS[name] + "\n", check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def team_server():
    data = tempfile.mkdtemp(prefix="smashtag-team-")
    subprocess.run([str(BINARY), "corpus", "generate", "--tweets", "2000", "--data-dir", data], check=True,
                   capture_output=True)
    for name in PASSWORDS:
        add_person(name, data)
    process, url = start_server(data)
    yield url, data
    process.terminate()
    assert process.wait(timeout=15) == 0


def sign_in(page, name):
    """Types the name and password into the sign-in page and submits it."""
    page.locator("#signin-name").fill(name)
    page.locator("#signin-password").press_sequentially(PASSWORDS[name])
    with page.expect_navigation():
        page.locator("form.signin button[type=submit]").click()
    return page


def test_serving_every_address_with_no_one_added_is_refused_in_one_sentence():
    data = tempfile.mkdtemp(prefix="smashtag-open-door-")
    run = subprocess.run([str(BINARY), "serve", "--host", "0.0.0.0", "--port", "0", "--data-dir", data],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert "smashtag user add" in run.stderr and "--public" in run.stderr, run.stderr
    assert run.stderr.count(".") <= 2, "one sentence"


def test_a_viewer_signs_in_searches_and_sees_no_track_control_nor_identified_exports(page, team_server,
                                                                                     allow_page_errors):
    url, _ = team_server
    allow_page_errors.append("status of 401")  # the wrong password's answer
    open_app(page, url)
    assert page.url.startswith(url + "signin?next="), "a stranger is sent to sign in"
    screenshot(page, "team-signin")
    assert AXE.run(page).response["violations"] == []
    # A wrong password: the same sentence as an unknown name, the name kept.
    page.locator("#signin-name").fill("vera")
    page.locator("#signin-password").fill("not her password")
    with page.expect_navigation():
        page.locator("form.signin button[type=submit]").click()
    expect(page.locator("[role=alert]")).to_contain_text("That name and password do not match")
    expect(page.locator("#signin-name")).to_have_value("vera")
    sign_in(page, "vera")
    assert page.url.startswith(url + "search"), "back where they were going"
    search(page, "#swift")
    tap_tab(page, "Recents")
    expect(page.locator("li.recent[data-term='#swift']")).to_have_count(1)
    expect(page.locator("li.recent form.track")).to_have_count(0)
    tap(page, "li.recent[data-term='#swift'] .detail")
    expect(page.locator("section.tracking form.track")).to_have_count(0)
    expect(page.locator("details.dataset-box")).to_have_count(0)
    screenshot(page, "team-viewer-popularity")
    tap(page, page.locator("nav.tabs a", has_text="Account"))
    expect(page.locator("dl.account")).to_contain_text("viewer")
    assert AXE.run(page).response["violations"] == []
    screenshot(page, "team-account")


def test_an_identified_dataset_is_refused_to_a_viewer_deep_link(page, team_server, allow_page_errors):
    url, _ = team_server
    allow_page_errors.append("status of 40[34]")  # the refusal, and the browser asking for /favicon.ico
    open_app(page, url)
    sign_in(page, "vera")
    search(page, "#swift")
    response = page.goto(url + "api/popularity/posts?term=%23swift")
    assert response.status == 403
    assert "role, which you do not have" in page.text_content("body")


def test_a_researcher_tracks_a_term_and_downloads_it_pseudonymised(page, team_server):
    url, data = team_server
    term = {"portrait": "#travel", "landscape": "#music"}[page.viewport_name]
    open_app(page, url)
    sign_in(page, "rhea")
    search(page, term)
    tap_tab(page, "Recents")
    tap(page, f"li.recent[data-term='{term}'] .detail")
    tap(page, page.locator("section.tracking button", has_text="Track"))
    expect(page.locator("section.tracking .tracked-mark")).to_be_visible()
    page.locator("details.dataset-box summary").click()
    expect(page.locator("details.dataset-box input[name=pseudonymise][type=checkbox]")).to_have_count(0)
    expect(page.locator("details.dataset-box")).to_contain_text("Pseudonymised, as your role allows")
    screenshot(page, "team-researcher-popularity")
    with page.expect_download() as download:
        page.locator("details.dataset-box button", has_text="Download").click()
    assert download.value.suggested_filename.endswith("-pseudonymised.ndjson")
    trail = subprocess.run([str(BINARY), "audit", "--format", "json", "--data-dir", data], capture_output=True,
                           text=True, check=True).stdout
    assert '"actor":"rhea"' in trail.replace(" ", "") and "pseudonymised" in trail and '"track"' in trail


def test_visitors_of_a_public_server_read_and_search_the_corpus_only():
    data = tempfile.mkdtemp(prefix="smashtag-public-")
    subprocess.run([str(BINARY), "corpus", "generate", "--tweets", "500", "--data-dir", data], check=True,
                   capture_output=True)
    add_person("ada", data)
    process, url = start_server(data, options=["--public"])
    try:
        assert status_of(url + "search?q=%23swift") == 200
        assert status_of(url + "api/recents") == 401
        assert status_of(url + "api/popularity/posts?term=%23swift&pseudonymise=1") == 401
        listed = subprocess.run([str(BINARY), "recents", "--data-dir", data], capture_output=True, text=True).stdout
        assert listed.strip() == "", "a visitor's search is kept nowhere"
    finally:
        process.terminate()
        process.wait(timeout=15)


def status_of(address, opener=None):
    try:
        return (opener or urllib.request.build_opener()).open(address, timeout=10).status
    except urllib.error.HTTPError as error:
        return error.code


class NoRedirects(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args):
        return None


def signed_in_opener(url, name):
    """A client that signs in on `url` as a browser would: the page, its CSRF token, the form."""
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar), NoRedirects)
    page = opener.open(url + "signin", timeout=10).read().decode()
    token = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    form = urllib.parse.urlencode({"csrf": token, "name": name, "password": PASSWORDS[name]}).encode()
    request = urllib.request.Request(url + "signin", data=form, headers={"Origin": url.rstrip("/")})
    try:
        opener.open(request, timeout=10)
    except urllib.error.HTTPError as error:
        assert error.code == 303, error.code
    return opener, jar


@pytest.mark.skipif(not os.environ.get("SMASHTAG_TEST_POSTGRES_URL"), reason="no test PostgreSQL (scripts/test starts one)")
def test_two_servers_on_postgresql_accept_one_sign_in_and_see_a_role_change_at_once():
    base = os.environ["SMASHTAG_TEST_POSTGRES_URL"]
    name = "smashtag_team_" + os.urandom(6).hex()
    subprocess.run(["psql", base, "-q", "-c", f"CREATE DATABASE {name}"], check=True, capture_output=True)
    database = ["--database", base.rsplit("/", 1)[0] + "/" + name]
    data = tempfile.mkdtemp(prefix="smashtag-team-pg-")
    subprocess.run([str(BINARY), "corpus", "generate", "--tweets", "300", "--data-dir", data, *database], check=True,
                   capture_output=True)
    add_person("rhea", data, database)
    add_person("ada", data, database)  # someone stays: a Smashtag with no one left is its owner's again
    servers = [start_server(data, options=database) for _ in range(2)]
    try:
        (_, first), (_, second) = servers
        opener, jar = signed_in_opener(first, "rhea")
        assert any(cookie.name == "smashtag_session" for cookie in jar)
        account = opener.open(second + "account", timeout=10).read().decode()
        assert "<dd>rhea</dd>" in account and "<dd>researcher</dd>" in account
        subprocess.run([str(BINARY), "user", "role", "rhea", "viewer", "--data-dir", data, *database], check=True,
                       capture_output=True)
        assert "<dd>viewer</dd>" in opener.open(second + "account", timeout=10).read().decode()
        assert status_of(second + "api/popularity/posts?term=%23swift&pseudonymise=1", opener) == 403
        subprocess.run([str(BINARY), "user", "remove", "rhea", "--data-dir", data, *database], check=True,
                       capture_output=True)
        assert status_of(first + "api/recents", opener) == 401
    finally:
        for process, _ in servers:
            process.terminate()
            process.wait(timeout=15)


def test_an_admin_reads_the_audit_trail_from_their_account(page, team_server, allow_page_errors):
    url, _ = team_server
    allow_page_errors.append("status of 401")  # the mistyped password's answer
    open_app(page, url)
    page.locator("#signin-name").fill("ada")
    page.locator("#signin-password").fill("mistyped password")
    with page.expect_navigation():
        page.locator("form.signin button[type=submit]").click()
    sign_in(page, "ada")
    tap(page, page.locator("nav.tabs a", has_text="Account"))
    expect(page.locator("dl.account")).to_contain_text("admin")
    tap(page, page.locator("a", has_text="The audit trail"))
    expect(page.locator("ol.audit li").first).to_be_visible()
    expect(page.locator("ol.audit")).to_contain_text("sign-in")
    expect(page.locator("ol.audit")).to_contain_text("failed sign-in")
    assert AXE.run(page).response["violations"] == []
    screenshot(page, "team-audit")
    # Signing out ends the session: the next page asks to sign in again.
    tap(page, page.locator("nav.tabs a", has_text="Account"))
    tap(page, page.locator("button", has_text="Sign out"))
    assert page.url.startswith(url + "signin")
    tap_tab(page, "Recents")
    assert page.url.startswith(url + "signin?next=")


def bluesky_view(rkey, handle, text, asks_for_sign_in, created):
    """A post view as Bluesky's searchPosts answers it; the author's profile labelled `!no-unauthenticated` when asked
    (as in bskyr's recorded search)."""
    did = "did:plc:" + handle.split(".")[0]
    labels = [{"src": did, "uri": f"at://{did}/app.bsky.actor.profile/self", "cid": "bafyprofile",
               "val": "!no-unauthenticated", "cts": "2024-11-13T02:13:44.288Z"}] if asks_for_sign_in else []
    tag = "#consenttest"
    start = len(text.encode()) + 1
    return {"uri": f"at://{did}/app.bsky.feed.post/{rkey}", "cid": "bafy" + rkey,
            "author": {"did": did, "handle": handle, "displayName": handle.split(".")[0].title(), "labels": labels},
            "record": {"$type": "app.bsky.feed.post", "text": f"{text} {tag}", "createdAt": created, "langs": ["en"],
                       "facets": [{"index": {"byteStart": start, "byteEnd": start + len(tag.encode())},
                                   "features": [{"$type": "app.bsky.richtext.facet#tag", "tag": "consenttest"}]}]},
            "replyCount": 0, "repostCount": 0, "likeCount": 0, "quoteCount": 0, "indexedAt": created, "labels": []}


@pytest.fixture(scope="module")
def public_server():
    data = tempfile.mkdtemp(prefix="smashtag-consent-")
    posts = pathlib.Path(data) / "bluesky.json"
    posts.write_text(json.dumps({"posts": [
        bluesky_view("3kprivate", "quiet.example.com", "Only for people signed in", True, "2026-11-20T10:00:00.000Z"),
        bluesky_view("3kopen", "open.example.com", "For everyone", False, "2026-11-20T09:00:00.000Z"),
    ]}))
    subprocess.run([str(BINARY), "import", str(posts), "--data-dir", data], check=True, capture_output=True)
    add_person("vera", data)
    process, url = start_server(data, options=["--public"])
    yield url
    process.terminate()
    assert process.wait(timeout=15) == 0


def test_a_visitor_is_not_shown_the_posts_of_an_author_who_asks_for_sign_in_until_signed_in(page, public_server):
    open_app(page, public_server)
    search(page, "#consenttest")
    expect(page.locator("ol.posts li")).to_have_count(1)
    expect(page.locator("ol.posts")).to_contain_text("For everyone")
    expect(page.locator("body")).not_to_contain_text("Only for people signed in")
    note = page.locator("p.sign-in-only")
    expect(note).to_contain_text("1 post is not shown: their authors show their posts only to people who are signed in.")
    assert AXE.run(page).violations_count == 0
    screenshot(page, "sign-in-only-visitor")
    tap(page, note.locator("a", has_text="Sign in"))
    sign_in(page, "vera")
    expect(page.locator("ol.posts li")).to_have_count(2)
    expect(page.locator("ol.posts")).to_contain_text("Only for people signed in")
    expect(page.locator("p.sign-in-only")).to_have_count(0)
    screenshot(page, "sign-in-only-signed-in")
