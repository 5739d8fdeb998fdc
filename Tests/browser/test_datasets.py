"""Datasets, as a researcher takes them away: from the Popularity page (NDJSON, or CSV tables in a zip, pseudonymised
or not) and from `smashtag export` on SQLite and on PostgreSQL; read back with Python's json and csv and compared with
the posts the search API gave; pseudonymised exports that hold no handle, name or picture and give each person the
same pseudonym every time."""
import csv
import io
import json
import re
import subprocess
import tempfile
import urllib.parse
import urllib.request
import zipfile
from datetime import datetime

import frictionless
import pytest
from axe_playwright_python.sync_playwright import Axe

from conftest import BINARY, ROOT, postgres_cluster, open_app, screenshot, search, tap, tap_tab

AXE = Axe()
TERM = "#swift"
FORMULA = ("=", "+", "-", "@", "\t", "\r")


def cell(text):
    """A CSV cell as written: a text a spreadsheet would run is prefixed with ' (plain numbers are not)."""
    return "'" + text if text.startswith(FORMULA) and not re.fullmatch(r"[+-]?\d+(\.\d+)?", text) else text


def when(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00"))


def same_post(line, api):
    """An NDJSON line is the API's post JSON with its time to the network's precision and when it was counted."""
    line = dict(line)
    assert "counted" in line and when(line.pop("counted"))
    assert abs((when(line.pop("created")) - when(api["created"])).total_seconds()) < 1
    assert line == {key: value for key, value in api.items() if key != "created"}


def check_tables(tables, posts):
    """The tidy tables hold exactly the posts, their mentions and their media, as csv reads them."""
    rows = {(row["network"], row["post_id"]): row for row in tables["posts.csv"]}
    assert set(rows) == {(post["network"], post["id"]) for post in posts}
    for post in posts:
        row = rows[(post["network"], post["id"])]
        assert row["text"] == cell(post["text"]) and row["author_handle"] == cell(post["user"]["screenName"])
        assert row["url"] == post["url"] and abs((when(row["created"]) - when(post["created"])).total_seconds()) < 1
        assert row["reply_to"] == post.get("inReplyToID", "") and row["language"] == post.get("language", "")
        mentions = [r for r in tables["mentions.csv"] if r["post_id"] == post["id"]]
        assert [(r["kind"], r["mention"], int(r["start"]), int(r["end"])) for r in mentions] == [
            (m["kind"], cell(m["keyword"]), m["start"], m["end"]) for m in post["mentions"]]
        media = [r for r in tables["media.csv"] if r["post_id"] == post["id"]]
        assert [(r["kind"], r["url"], float(r["aspect_ratio"]), r["alt"]) for r in media] == [
            (m["kind"], m["url"], m["aspectRatio"], m.get("alt", "")) for m in post["media"]]


def read_zip(data):
    """The zip's tables by file name; its datapackage.json is checked by `described`."""
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name.split("/")[-1]: list(csv.DictReader(io.StringIO(archive.read(name).decode("utf-8"), newline="")))
                for name in archive.namelist() if name.endswith(".csv")}


def described(descriptor, posts):
    """Frictionless reads the dataset's datapackage.json and finds every row as it says (types, keys, the mentions'
    and media's posts among the posts); returns its `collection`, which must count the posts."""
    report = frictionless.validate(descriptor)
    assert report.valid, report.flatten(["rowNumber", "fieldName", "type", "message"])[:5]
    rows = {task.name: task.stats.get("rows", 0) for task in report.tasks}  # a header alone has no "rows"
    assert rows["posts"] == posts
    with open(descriptor, encoding="utf-8") as file:
        package = json.load(file)
    assert package["$schema"] == "https://datapackage.org/profiles/2.0/datapackage.json"
    assert package["collection"]["posts"] == posts and package["collection"]["smashtagVersion"]
    return package["collection"]


def described_zip(path, posts):
    folder = tempfile.mkdtemp(prefix="smashtag-zip-")
    with zipfile.ZipFile(path) as archive:
        archive.extractall(folder)
        inner = next(name for name in archive.namelist() if name.endswith("/datapackage.json"))
    assert archive.namelist()[-1] == inner, "the description is the zip's last entry, made when the posts were read"
    return described(f"{folder}/{inner}", posts)


def api_posts(server, term, pages=3):
    """The term's posts as the search API gives them, a hundred at a time: each page is counted under the term."""
    posts, older = [], None
    for _ in range(pages):
        query = "q=" + urllib.parse.quote(term) + "&count=100" + (f"&before={urllib.parse.quote(older)}" if older else "")
        with urllib.request.urlopen(server + "api/search?" + query) as response:
            document = json.load(response)
        posts += document["tweets"]
        older = document.get("older")
        if not older:
            break
    return posts


def test_a_person_downloads_a_terms_posts_from_its_popularity_page(page, server):
    search(open_app(page, server), TERM)
    fetched = api_posts(server, TERM)
    tap_tab(page, "Recents")
    tap(page, f"li.recent[data-term='{TERM}'] .detail")
    page.locator("details.dataset-box summary").click()
    screenshot(page, "popularity-dataset")
    assert AXE.run(page).response["violations"] == []
    # NDJSON, as the form first offers it.
    with page.expect_download() as download:
        page.locator("details.dataset-box button", has_text="Download").click()
    assert download.value.suggested_filename == "posts-swift-all.ndjson"
    lines = [json.loads(line) for line in open(download.value.path(), encoding="utf-8")]
    by_id = {line["id"]: line for line in lines}
    assert len(by_id) == len(lines), "each post once"
    for post in fetched:
        same_post(by_id[post["id"]], post)
    assert all(any(m["keyword"].lower() == TERM for m in line["mentions"]) for line in lines)
    # CSV tables in a zip, pseudonymised.
    page.locator("details.dataset-box select[name=format]").select_option("csv")
    page.locator("details.dataset-box input[name=pseudonymise]").check()
    with page.expect_download() as download:
        page.locator("details.dataset-box button", has_text="Download").click()
    assert download.value.suggested_filename == "posts-swift-all-pseudonymised.zip"
    tables = read_zip(open(download.value.path(), "rb").read())
    assert set(tables) == {"posts.csv", "mentions.csv", "media.csv", "popularity.csv", "network.csv", "servers.csv"}
    assert tables["servers.csv"] == []  # no fleet fed the demo's term
    assert len(tables["posts.csv"]) == len(lines)
    collection = described_zip(download.value.path(), len(lines))
    assert collection["term"] == TERM and collection["window"] == "all" and collection["pseudonymised"] is True
    assert "demo corpus" in collection["corpus"] and collection["postsByNetwork"] == {"twitter": len(lines)}
    handles = {post["user"]["screenName"].lower() for post in fetched}
    assert not handles & {row["author_handle"].lower() for row in tables["posts.csv"]}
    assert all(re.fullmatch(r"p_[0-9a-f]{16}", row["author_handle"]) for row in tables["posts.csv"])
    assert all(row["author_name"] == "" for row in tables["posts.csv"])


def test_a_bad_download_is_refused_in_a_sentence_deep_link(server):
    for query, status, sentence in [
        ("term=%23nothing", 404, "is not in Recents"),
        ("term=%23swift&format=xlsx", 400, "format must be ndjson or csv."),
        ("term=%23swift&window=1y", 400, "window must be 24h, 7d, 30d or all."),
    ]:
        try:
            urllib.request.urlopen(server + "api/popularity/posts?" + query)
            raise AssertionError(query)
        except urllib.error.HTTPError as error:
            assert error.code == status and sentence in error.read().decode()




@pytest.fixture(scope="module")
def postgres():
    with postgres_cluster("smashtag-pg-datasets-") as (_, url):
        yield url


def smashtag(*arguments, data):
    run = subprocess.run([str(BINARY), *arguments, "--data-dir", data], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    return run


@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_the_command_exports_the_stored_posts_on_both_stores(store, request):
    data = tempfile.mkdtemp(prefix="smashtag-datasets-")
    database = ["--database", request.getfixturevalue("postgres")] if store == "postgresql" else []
    smashtag("corpus", "generate", "--tweets", "3000", data=data)
    posts = []
    for older in ([], ["--older"], ["--older"]):
        posts += json.loads(smashtag("search", TERM, "--count", "100", "--format", "json", *older, *database,
                                     data=data).stdout)["tweets"]
    assert len(posts) > 100
    lines = [json.loads(line) for line in smashtag("export", TERM, *database, data=data).stdout.splitlines()]
    assert sorted(line["id"] for line in lines) == sorted(post["id"] for post in posts)
    by_id = {line["id"]: line for line in lines}
    for post in posts:
        same_post(by_id[post["id"]], post)
    smashtag("export", TERM, "--format", "csv", "--output", data + "/tables", *database, data=data)
    tables = {name: list(csv.DictReader(open(f"{data}/tables/{name}", encoding="utf-8", newline="")))
              for name in ["posts.csv", "mentions.csv", "media.csv", "popularity.csv", "network.csv"]}
    check_tables(tables, posts)
    collection = described(data + "/tables/datapackage.json", len(posts))
    assert collection["pseudonymised"] is False and collection["firstCounted"] <= collection["lastCounted"]
    # NDJSON written to a file has its description beside it.
    smashtag("export", TERM, "--output", data + "/posts.ndjson", *database, data=data)
    assert described(data + "/posts.datapackage.json", len(posts))["term"] == TERM
    popularity = json.loads(smashtag("popularity", TERM, "--format", "json", *database, data=data).stdout)
    counts = {row["mention"]: row["count"] for kind in ("hashtags", "users") for row in popularity[kind]}
    assert {cell(m): int(row["count"]) for row in tables["popularity.csv"] for m in [row["mention"]]} == {
        cell(m): c for m, c in counts.items()}
    # Pseudonymised, twice: no handle, name or picture of the input is left, and each person keeps one pseudonym.
    first = [json.loads(line) for line in smashtag("export", TERM, "--pseudonymise", *database, data=data).stdout.splitlines()]
    smashtag("export", TERM, "--format", "csv", "--pseudonymise", "--output", data + "/shared.zip", *database, data=data)
    with open(data + "/shared.zip", "rb") as archive:
        shared = read_zip(archive.read())
    assert described_zip(data + "/shared.zip", len(posts))["pseudonymised"] is True
    everything = json.dumps(first, ensure_ascii=False).lower() + json.dumps(shared, ensure_ascii=False).lower()
    for post in posts:
        for person in [post["user"]] + ([post["retweetedBy"]] if "retweetedBy" in post else []):
            assert '"' + person["screenName"].lower() + '"' not in everything
            assert "@" + person["screenName"].lower() + " " not in everything
            name = person["name"].lower()
            assert '"' + name + '"' not in everything and (" " not in name or name not in everything)
            assert person.get("profileImageURL", "\0").lower() not in everything
        for mention in post["mentions"]:
            if mention["kind"] == "user":
                assert re.search(re.escape(mention["keyword"].lower()) + r"\b", everything) is None
    pseudonym = {line["id"]: line["user"]["screenName"] for line in first}
    assert {row["post_id"]: row["author_handle"] for row in shared["posts.csv"]} == pseudonym
    people = {}
    for post in posts:
        people.setdefault(post["user"]["screenName"].lower(), set()).add(pseudonym[post["id"]])
    assert all(len(names) == 1 for names in people.values()), "one pseudonym per person"
    assert len({next(iter(names)) for names in people.values()}) == len(people), "one person per pseudonym"


def test_an_export_imported_elsewhere_exports_the_same_json():
    data, elsewhere = tempfile.mkdtemp(prefix="smashtag-datasets-"), tempfile.mkdtemp(prefix="smashtag-datasets-")
    smashtag("corpus", "generate", "--tweets", "3000", data=data)
    for older in ([], ["--older"]):
        smashtag("search", TERM, "--count", "100", *older, data=data)
    exported = smashtag("export", TERM, "--output", data + "/posts.ndjson", data=data)
    count = re.search(r"Exported ([\d,]+) posts of “#swift”", exported.stderr).group(1)
    assert int(count.replace(",", "")) > 100
    imported = smashtag("import", data + "/posts.ndjson", data=elsewhere)
    assert f"Imported {count} posts, 0 duplicates, 0 skipped" in imported.stdout
    again = smashtag("export", "--query", TERM, data=elsewhere).stdout.splitlines()
    original = [json.loads(line) for line in open(data + "/posts.ndjson", encoding="utf-8")]
    for line in original:
        del line["counted"]
    assert {line["id"]: line for line in map(json.loads, again)} == {line["id"]: line for line in original}
