"""Running Smashtag as a service, read by operators' own tools: `/metrics` parsed by prometheus_client's parser (the
series an operator graphs), `/healthz` and `/readyz` as a load balancer probes them (503 while PostgreSQL is away,
200 when it is back), `/metrics` for this computer and admins only, and `--log-format json` lines a log shipper
reads, with no password, token or cookie in any of them."""
import http.cookiejar
import json
import pathlib
import re
import subprocess
import tempfile
import urllib.error
import urllib.parse
import urllib.request

import pytest
from prometheus_client.parser import text_string_to_metric_families

import stub_mastodon
from conftest import BINARY, CLUSTER, postgres_cluster, start_server, wait_for

PASSWORD = "operator password 42"


def fetch(url, headers=None, data=None, opener=None):
    """(status, headers, body text) of a request, whatever its status."""
    request = urllib.request.Request(url, data=data, headers=headers or {})
    try:
        with (opener or urllib.request.build_opener()).open(request, timeout=30) as response:
            return response.status, response.headers, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.headers, error.read().decode()


def samples(url, headers=None):
    """Every sample of `/metrics` as prometheus_client reads it: (name, labels, value)."""
    status, response_headers, text = fetch(url + "metrics", headers)
    assert status == 200, text
    assert response_headers["Content-Type"].startswith("text/plain; version=0.0.4")
    return [(sample.name, sample.labels, sample.value)
            for family in text_string_to_metric_families(text) for sample in family.samples]


def value(found, name, **labels):
    """The value of the sample with this name and these labels (others may be present); None when there is none."""
    for sample_name, sample_labels, sample_value in found:
        if sample_name == name and all(sample_labels.get(key) == wanted for key, wanted in labels.items()):
            return sample_value
    return None


@pytest.fixture(scope="module")
def operated():
    """A team's server on a small demo corpus and a stand-in Mastodon, behind a (pretend) proxy on 127.0.0.1, logging
    JSON at trace level to a file: an admin with a password and a token, a researcher's token."""
    data = tempfile.mkdtemp(prefix="smashtag-operated-")
    subprocess.run([str(BINARY), "corpus", "generate", "--tweets", "1500", "--data-dir", data], check=True,
                   capture_output=True)
    subprocess.run([str(BINARY), "user", "add", "ops", "--role", "admin", "--data-dir", data], input=PASSWORD + "\n",
                   check=True, capture_output=True, text=True)
    tokens = {}
    for role in ("admin", "researcher"):
        run = subprocess.run([str(BINARY), "token", "create", "ops", "--role", role, "--data-dir", data], check=True,
                             capture_output=True, text=True)
        tokens[role] = run.stdout.strip().splitlines()[-1]
    subprocess.run([str(BINARY), "track", "#swift", "--every", "10s", "--data-dir", data], check=True,
                   capture_output=True)
    log = pathlib.Path(data) / "server.log"
    process, url = start_server(
        data, {"SMASHTAG_MASTODON_INSTANCE": stub_mastodon.start()},
        ["--log-format", "json", "--log-level", "trace", "--trusted-proxy", "127.0.0.1"], stderr=log.open("w"))
    yield url, tokens, log
    process.terminate()
    assert process.wait(timeout=15) == 0


def test_metrics_parsed_as_prometheus_does_hold_requests_searches_budgets_lateness_streams_and_waits(operated):
    url, tokens, _ = operated
    admin = {"Authorization": "Bearer " + tokens["admin"]}
    assert fetch(url + "api/search?q=%23swift&source=corpus,mastodon", admin)[0] == 200
    fetch(url + "api/search?q=%23busy&source=mastodon", admin)  # the stand-in answers 429
    # A live stream open while the metrics are read.
    stream = urllib.request.urlopen(urllib.request.Request(url + "api/popularity/events?term=%23swift", headers=admin),
                                    timeout=30)
    try:
        stream.readline()
        found = wait_for(lambda: (lambda got: got if value(got, "smashtag_tracker_lateness_seconds", term="#swift")
                                  is not None else None)(samples(url)), timeout=30, interval=0.25)
        assert found, "the tracked term's lateness never appeared"
        assert value(found, "smashtag_live_streams_open") >= 1
    finally:
        stream.close()
    assert value(found, "smashtag_http_requests_total", route="/api/search", method="GET", status="200") >= 1
    assert value(found, "smashtag_http_request_duration_seconds_bucket", route="/api/search", le="+Inf") >= 1
    assert value(found, "smashtag_http_request_duration_seconds_count", route="/api/search") >= 1
    assert value(found, "smashtag_source_searches_total", source="corpus") >= 1
    assert value(found, "smashtag_source_searches_total", source="mastodon") >= 2
    assert value(found, "smashtag_source_search_errors_total", source="mastodon", kind="rate_limited") >= 1
    assert value(found, "smashtag_source_rate_limit_remaining", source="mastodon") == 0  # the 429 spent the window
    assert value(found, "smashtag_source_rate_limit_limit", source="mastodon") == 300
    assert value(found, "smashtag_tracker_lateness_seconds", term="#swift") >= 0
    assert value(found, "smashtag_database_pool_wait_seconds_count", database="sqlite") >= 1


def test_metrics_are_for_this_computer_and_admins_only(operated):
    url, tokens, _ = operated
    assert fetch(url + "metrics")[0] == 200  # from this computer, signed out
    elsewhere = {"X-Forwarded-For": "203.0.113.9"}  # through the proxy, from another computer
    status, headers, body = fetch(url + "metrics", elsewhere)
    assert status == 401 and json.loads(body)["error"], body
    status, _, body = fetch(url + "metrics", {**elsewhere, "Authorization": "Bearer " + tokens["researcher"]})
    assert status == 403 and "admin" in json.loads(body)["error"], body
    assert fetch(url + "metrics", {**elsewhere, "Authorization": "Bearer " + tokens["admin"]})[0] == 200


def test_probes_answer_anyone_from_anywhere(operated):
    url, _, _ = operated
    elsewhere = {"X-Forwarded-For": "203.0.113.9"}
    status, _, body = fetch(url + "healthz", elsewhere)
    assert (status, json.loads(body)) == (200, {"status": "ok"})
    status, _, body = fetch(url + "readyz", elsewhere)
    assert (status, json.loads(body)) == (200, {"status": "ready"})


def test_json_logs_have_one_object_a_line_with_request_ids_and_no_secret(operated):
    url, tokens, log = operated
    # Sign in on the page's form as a browser would (its CSRF token and cookie), then use the session and a token.
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    _, _, page = fetch(url + "signin", opener=opener)
    csrf = re.search(r'name="csrf" value="([^"]+)"', page).group(1)
    form = urllib.parse.urlencode({"csrf": csrf, "name": "ops", "password": PASSWORD}).encode()
    status, _, _ = fetch(url + "signin", {"Origin": url.rstrip("/"), "Content-Type": "application/x-www-form-urlencoded"},
                         form, opener)
    assert status == 200  # followed to the page it sends to
    session = next(cookie.value for cookie in jar if cookie.name == "smashtag_session")
    assert fetch(url + "account", opener=opener)[0] == 200
    assert fetch(url + "api/recents", {"Authorization": "Bearer " + tokens["admin"]})[0] == 200
    wait_for(lambda: "/api/recents" in log.read_text(), timeout=10)
    lines = log.read_text().splitlines()
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert all({"time", "level", "message"} <= record.keys() for record in records)
    requests = [record for record in records if record.get("hb.request.path") == "/api/recents"]
    assert requests and all(re.fullmatch(r"[0-9a-f]{32}", record["request_id"]) for record in requests)
    text = log.read_text()
    for secret in (PASSWORD, session, tokens["admin"], tokens["researcher"], csrf):
        assert secret not in text


def test_readyz_says_503_while_postgresql_is_away_and_200_when_it_is_back():
    with postgres_cluster("smashtag-pg-ready-") as (directory, database):
        data = tempfile.mkdtemp(prefix="smashtag-ready-")
        subprocess.run([str(BINARY), "corpus", "generate", "--tweets", "500", "--data-dir", data, "--database",
                        database], check=True, capture_output=True)
        process, url = start_server(data, {"SMASHTAG_DATABASE_URL": database})
        try:
            assert fetch(url + "readyz")[0] == 200
            subprocess.run([str(CLUSTER), "halt", directory], check=True)
            try:
                status, headers, body = wait_for(lambda: (lambda got: got if got[0] == 503 else None)(
                    fetch(url + "readyz")), timeout=30, interval=0.25)
                assert json.loads(body)["status"] == "unavailable"
                assert "database cannot be reached" in json.loads(body)["reason"]
                assert headers["Retry-After"]
                assert fetch(url + "healthz")[0] == 200  # alive all the same: not a reason to restart it
            finally:
                subprocess.run([str(CLUSTER), "resume", directory], check=True)
            assert wait_for(lambda: fetch(url + "readyz")[0] == 200, timeout=30, interval=0.25)
        finally:
            process.terminate()
            assert process.wait(timeout=15) == 0


def test_the_live_index_lag_and_posts_are_in_the_metrics():
    from test_live_index import running_live_server
    with running_live_server() as url:
        found = wait_for(lambda: (lambda got: got if (value(got, "smashtag_live_index_posts_total") or 0) >= 1
                                  else None)(samples(url)), timeout=30, interval=0.25)
        assert found, "the live index's posts never reached the metrics"
        assert value(found, "smashtag_live_index_lag_seconds") >= 0
        assert value(found, "smashtag_live_index_posts_per_second") is not None
