"""Two servers under load, and how fast a change crosses from one to the other (Benchmarks/postgres/run.sh).

wrk sends 16 connections to each server for the given time, each request a search from a list of 300 different
queries (`#a OR #b`, `#a -#b` over the corpus's 150 most used hashtags), so most requests record a term and count
its page. Meanwhile the probe keeps the second server's live Popularity events open for a term of its own and, 99
times, asks the first server for one more of the term's posts (`count` = 2, 3, …, after a first one untimed): each request commits one new
post, the term's own hashtag counts one more, and the second server sends an event. The time from the first
server's answer (the commit is done) to the event is the crossing time."""
import http.client
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from corpus_terms import terms  # noqa: E402

corpus, first, second, seconds = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
tags = terms(corpus, "#", 151)
probe_tag, tags = tags[0], tags[1:]
work = tempfile.mkdtemp()
with open(os.path.join(work, "paths"), "w") as out:
    for a, b in zip(tags, tags[1:] + tags[:1]):
        for query in (f"{a} OR {b}", f"{a} -{b}"):
            out.write("/search?q=" + urllib.parse.quote(query, safe="") + "\n")

events = []
ready = threading.Event()


def listen():
    target = urllib.parse.urlsplit(second)
    connection = http.client.HTTPConnection(target.hostname, target.port, timeout=seconds + 60)
    connection.request("GET", "/api/popularity/events?term=" + urllib.parse.quote(probe_tag))
    response = connection.getresponse()
    for line in response:
        if line.startswith(b"event:"):
            events.append(time.monotonic())
            ready.set()


threading.Thread(target=listen, daemon=True).start()
ready.wait(10)
# Each server's wrk starts at its own half of the paths: no two requests in flight ask the same term.
loads = [subprocess.Popen(["wrk", "-t1", "-c16", f"-d{seconds}s", "--latency", "-s", os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "rotate.lua"), server],
                          stdout=subprocess.PIPE, text=True, env=dict(os.environ, PATHS_FILE=os.path.join(work, "paths"), PATHS_PART=str(part)))
         for part, server in enumerate((first, second))]
time.sleep(1)
crossings = []
# The first post of the term changes no row (a table shows mentions counted more than once): it is not timed.
urllib.request.urlopen(first + "api/search?q=" + urllib.parse.quote(probe_tag) + "&count=1").read()
time.sleep(0.5)
for count in range(2, 101):
    seen = len(events)
    urllib.request.urlopen(first + "api/search?q=" + urllib.parse.quote(probe_tag) + f"&count={count}").read()
    answered = time.monotonic()
    while len(events) == seen and time.monotonic() - answered < 5:
        time.sleep(0.001)
    crossings.append((events[seen] - answered) if len(events) > seen else 5.0)
    time.sleep(max(0.0, (seconds - 3) / 100 - (time.monotonic() - answered)))
outputs = [load.communicate()[0] for load in loads]
errors = 0
total = 0.0
for name, output in zip(("first", "second"), outputs):
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p99 = re.search(r"\s99%\s+(\S+)", output).group(1)
    non2xx = re.search(r"Non-2xx or 3xx responses:\s+(\d+)", output)
    sockets = re.search(r"Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)", output)
    failed = int(non2xx.group(1) if non2xx else 0) + sum(int(n) for n in (sockets.groups() if sockets else ()))
    errors += failed
    total += rate
    print(f"| {name} server | {rate:.0f} requests/s | p99 {p99} | errors {failed} |")
crossings.sort()
print(f"| both | {total:.0f} requests/s | | errors {errors} |")
print(f"crossing (a change on the first server seen on the second's live page), 99 changes: "
      f"p50 {crossings[len(crossings) // 2] * 1000:.1f} ms, p99 {crossings[int(len(crossings) * 0.99) - 1] * 1000:.1f} ms, max {crossings[-1] * 1000:.1f} ms")
sys.exit(1 if errors or crossings[int(len(crossings) * 0.99) - 1] > 1 else 0)
