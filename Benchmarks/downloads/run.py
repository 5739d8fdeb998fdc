#!/usr/bin/env python3
"""Many dataset downloads at once (issue 47): a server on a demo corpus, a big term counted over most of its posts,
then N downloads of its dataset at once (half CSV zips, half NDJSON) while a person's requests — the start page
(redirected to a search) and a static file — are timed one after another. Prints how long the downloads took, how
many finished whole, and the slowest and median page; a page that gets no answer within `--give-up` seconds makes the
run "froze".

Usage: Benchmarks/downloads/run.py BINARY [--tweets 20000] [--pages 100] [--downloads 16] [--database URL]
BINARY: a release `smashtag` (`swift build -c release --scratch-path .build-release --product smashtag`); the
baseline is the same script against an earlier release's binary.
"""
import argparse
import io
import json
import os
import re
import statistics
import subprocess
import tempfile
import threading
import time
import urllib.parse
import urllib.request
import zipfile

BIG = "a OR the OR to OR is OR i OR of OR and OR in OR #stanford OR #swift OR @nasa"


def main():
    options = argparse.ArgumentParser()
    options.add_argument("binary")
    options.add_argument("--tweets", type=int, default=20000)
    options.add_argument("--pages", type=int, default=100)
    options.add_argument("--downloads", type=int, default=16)
    options.add_argument("--database")
    options.add_argument("--give-up", type=float, default=60)
    arguments = options.parse_args()
    data = tempfile.mkdtemp(prefix="smashtag-downloads-bench-")
    environment = dict(os.environ, **({"SMASHTAG_DATABASE_URL": arguments.database} if arguments.database else {}))
    subprocess.run([arguments.binary, "corpus", "generate", "--tweets", str(arguments.tweets), "--data-dir", data],
                   check=True, capture_output=True, env=environment)
    server = subprocess.Popen([arguments.binary, "serve", "--port", "0", "--data-dir", data, "--log-level", "warning"],
                              stdout=subprocess.PIPE, text=True, env=environment)
    try:
        url = next(match.group(1) for line in server.stdout if (match := re.search(r"running at (http://\S+/)", line)))
        older, counted = None, 0
        for _ in range(arguments.pages):
            query = "q=" + urllib.parse.quote(BIG) + "&count=100" + (f"&before={urllib.parse.quote(older)}" if older else "")
            with urllib.request.urlopen(url + "api/search?" + query, timeout=120) as response:
                page = json.load(response)
            counted += len(page["tweets"])
            older = page.get("older")
            if not older:
                break
        with urllib.request.urlopen(url + "search", timeout=60) as response:
            html = response.read().decode()
        asset = html[html.index("/assets/") + 1:html.index('"', html.index("/assets/"))]
        results = []
        threads = [threading.Thread(target=download, args=(url, form, results), daemon=True)
                   for form in (["csv", "ndjson"] * arguments.downloads)[:arguments.downloads]]
        started = time.monotonic()
        for thread in threads:
            thread.start()
        pages, froze = [], False
        while any(thread.is_alive() for thread in threads):
            for path in ["", asset]:
                begun = time.monotonic()
                try:
                    with urllib.request.urlopen(url + path, timeout=arguments.give_up) as response:
                        response.read()
                except OSError:
                    froze = True
                    break
                pages.append(time.monotonic() - begun)
            if froze:
                break
            time.sleep(0.05)
        took = time.monotonic() - started
        whole = sum(1 for ok in results if ok)
        if froze:
            print(f"froze: no page within {arguments.give_up:.0f} s after {took:.1f} s; {whole} of "
                  f"{arguments.downloads} downloads finished")
        else:
            print(f"{counted} posts counted; {arguments.downloads} downloads at once: {whole} whole in {took:.1f} s; "
                  f"pages meanwhile: {len(pages)}, median {statistics.median(pages) * 1000:.0f} ms, "
                  f"slowest {max(pages) * 1000:.0f} ms")
    finally:
        server.kill()
        server.wait()


def download(url, form, results):
    try:
        query = urllib.parse.urlencode({"term": BIG, "format": form})
        with urllib.request.urlopen(url + "api/popularity/posts?" + query, timeout=600) as response:
            body = response.read()
        if form == "csv":
            zipfile.ZipFile(io.BytesIO(body)).testzip()
        else:
            [json.loads(line) for line in body.decode().splitlines()]
        results.append(True)
    except Exception:  # a download cut off or broken counts as not whole
        results.append(False)


if __name__ == "__main__":
    main()
