"""Many dataset downloads at once, as a research group makes them from one server: sixteen CSV and NDJSON downloads
of a big term all finish, whole, while the site keeps answering every page within a second, on SQLite and on
PostgreSQL; and a server killed mid-download leaves nothing behind once it starts again. (Eight CSV downloads at once
once froze the server for good: both of Swift's threads waited in a blocking database read.)"""
import csv
import io
import json
import os
import pathlib
import signal
import subprocess
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import zipfile

import pytest

from conftest import BINARY, ROOT, postgres_cluster, start_server, wait_for

# The probe's term: most of the demo's posts match it.
BIG = "a OR the OR to OR is OR i OR of OR and OR in OR #stanford OR #swift OR @nasa"


@pytest.fixture(scope="module")
def postgres():
    with postgres_cluster("smashtag-pg-downloads-") as (_, url):
        yield url


def serving(store, request, tweets=3000):
    """A server on a fresh demo corpus (in PostgreSQL for `postgresql`), and the term counted over its posts."""
    data = tempfile.mkdtemp(prefix="smashtag-downloads-")
    environment = {}
    if store == "postgresql":
        environment["SMASHTAG_DATABASE_URL"] = request.getfixturevalue("postgres")
        subprocess.run([str(BINARY), "corpus", "generate", "--tweets", str(tweets), "--data-dir", data], check=True,
                       capture_output=True, env=dict(os.environ, **environment))
    else:
        subprocess.run([str(BINARY), "corpus", "generate", "--tweets", str(tweets), "--data-dir", data], check=True,
                       capture_output=True)
    process, url = start_server(data, environment)
    return data, process, url


def count_pages(url, term, pages):
    """Searches the term a hundred posts a page, older each time: every post fetched is counted under it."""
    older = None
    for _ in range(pages):
        query = "q=" + urllib.parse.quote(term) + "&count=100" + (f"&before={urllib.parse.quote(older)}" if older else "")
        with urllib.request.urlopen(url + "api/search?" + query, timeout=60) as response:
            older = json.load(response).get("older")
        if not older:
            break


def download(url, term, form, results):
    query = urllib.parse.urlencode({"term": term, "format": form})
    started = time.monotonic()
    with urllib.request.urlopen(url + "api/popularity/posts?" + query, timeout=600) as response:
        ahead = int(response.headers["Smashtag-Downloads-Ahead"])
        body = response.read()
    if form == "csv":
        with zipfile.ZipFile(io.BytesIO(body)) as archive:
            table = archive.read(next(name for name in archive.namelist() if name.endswith("posts.csv"))).decode()
            rows = len(list(csv.DictReader(io.StringIO(table, newline=""))))
    else:
        rows = len([line for line in body.decode().split("\n") if line and json.loads(line)])
    results.append((form, rows, ahead, time.monotonic() - started))


@pytest.mark.parametrize("store", ["sqlite", "postgresql"])
def test_sixteen_downloads_at_once_finish_while_every_page_answers_within_a_second(store, request):
    data, process, url = serving(store, request)
    try:
        count_pages(url, BIG, 30)
        with urllib.request.urlopen(url + "api/popularity/posts?" + urllib.parse.urlencode({"term": BIG}), timeout=120) as r:
            expected = len(r.read().decode().strip().split("\n"))
        assert expected > 1000, "a big term"
        results, threads = [], []
        for form in ["csv", "ndjson"] * 8:
            thread = threading.Thread(target=download, args=(url, BIG, form, results), daemon=True)
            thread.start()
            threads.append(thread)
        # Meanwhile a person opens the site (its start page, redirected to a search) and a static file, again and
        # again: each must answer within a second.
        slowest = 0.0
        while any(thread.is_alive() for thread in threads):
            for path in ["", "assets/" + asset_name(url)]:
                started = time.monotonic()
                with urllib.request.urlopen(url + path, timeout=1) as response:
                    response.read()
                slowest = max(slowest, time.monotonic() - started)
            for thread in threads:
                thread.join(timeout=0.05)
        assert len(results) == 16, "every download finished"
        assert all(rows == expected for _, rows, _, _ in results), [(form, rows) for form, rows, _, _ in results]
        assert max(ahead for _, _, ahead, _ in results) > 0, "some waited their turn, and were told so"
        print(f"\n{store}: {expected} posts, 16 downloads, slowest page {slowest:.3f} s, longest download {max(r[3] for r in results):.1f} s, most ahead {max(r[2] for r in results)}")
        assert slowest < 1.0, f"a page took {slowest:.2f} s"
    finally:
        process.terminate()
        assert process.wait(timeout=30) == 0


def asset_name(url):
    """The stylesheet's fingerprinted name, as the start page links it."""
    with urllib.request.urlopen(url + "search", timeout=10) as response:
        page = response.read().decode()
    start = page.index("/assets/") + len("/assets/")
    return page[start:page.index('"', start)]


def test_a_server_killed_mid_download_leaves_nothing_once_it_starts_again(request):
    data, process, url = serving("sqlite", request, tweets=2000)
    tmp = pathlib.Path(data) / "tmp"
    try:
        count_pages(url, BIG, 20)
        # A download the client does not read: the server has begun its zip, and holds it until it is sent.
        query = urllib.parse.urlencode({"term": BIG, "format": "csv"})
        response = urllib.request.urlopen(url + "api/popularity/posts?" + query, timeout=60)
        assert wait_for(lambda: any(tmp.glob("*/*.zip")), timeout=30, interval=0.01), "the download's zip is made"
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        response.close()
        left = sorted(str(path.relative_to(tmp)) for path in tmp.rglob("*"))
        assert any(name.endswith(".zip") for name in left) and any(name.endswith(".owner") for name in left), left
        process, url = start_server(data)
        owned = sorted(path.name for path in tmp.iterdir())
        assert len(owned) == 2 and owned[1] == owned[0] + ".owner", f"only the new server's folder: {owned}"
        assert not any((tmp / owned[0]).iterdir()), "and nothing in it"
    finally:
        process.terminate()
        process.wait(timeout=30)
