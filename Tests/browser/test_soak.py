"""200 live Popularity connections held for a minute while counts change: the server's memory stays flat and every
client ends with the final counts."""
import http.client
import json
import subprocess
import threading
import time
import urllib.parse
import urllib.request

from conftest import BINARY, SERVER_PIDS, wait_for

CLIENTS = 200
SECONDS = 60


def resident_megabytes(pid):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0


class Listener(threading.Thread):
    """One EventSource-like client: keeps the last `table` event it received."""

    def __init__(self, host, port, path):
        super().__init__(daemon=True)
        self.host, self.port, self.path = host, port, path
        self.last = None
        self.events = 0
        self.connected = threading.Event()

    def run(self):
        connection = http.client.HTTPConnection(self.host, self.port, timeout=SECONDS * 3)
        connection.request("GET", self.path, headers={"Accept": "text/event-stream"})
        response = connection.getresponse()
        self.connected.set()
        data = []
        for raw in response:
            line = raw.decode().rstrip("\n")
            if line.startswith("data: "):
                data.append(line[6:])
            elif line == "" and data:
                self.last = json.loads("\n".join(data))
                self.events += 1
                data = []


def test_two_hundred_live_connections_for_a_minute(server, data_dir):
    term = "#stanford"
    subprocess.run([str(BINARY), "search", term, "--count", "20", "--data-dir", data_dir], check=True, capture_output=True)
    parsed = urllib.parse.urlparse(server)
    path = "/api/popularity/events?term=" + urllib.parse.quote(term)
    listeners = [Listener(parsed.hostname, parsed.port, path) for _ in range(CLIENTS)]
    for listener in listeners:
        listener.start()
    for listener in listeners:
        assert listener.connected.wait(30)
    pid = SERVER_PIDS[0]
    assert wait_for(lambda: all(listener.events for listener in listeners), 30), "every client has its first table"
    start_memory = resident_megabytes(pid)
    deadline = time.time() + SECONDS
    searches = 0
    while time.time() < deadline:
        # Another process fetches older tweets for the term: counts change.
        subprocess.run([str(BINARY), "search", term, "--older", "--count", "20", "--data-dir", data_dir], capture_output=True)
        searches += 1
        time.sleep(4)  # the pace of the searches, not a wait for anything
    final = json.load(urllib.request.urlopen(server + "api/popularity?term=" + urllib.parse.quote(term)))
    wait_for(lambda: all(listener.last == final for listener in listeners), 30)
    end_memory = resident_megabytes(pid)
    late = [listener for listener in listeners if listener.last != final]
    print(f"soak: {CLIENTS} clients, {searches} searches, memory {start_memory:.1f} → {end_memory:.1f} MB, "
          f"events per client {min(l.events for l in listeners)}–{max(l.events for l in listeners)}")
    assert not late, f"{len(late)} clients did not see the final counts"
    assert min(listener.events for listener in listeners) > 3
    assert end_memory - start_memory < 25, (start_memory, end_memory)
