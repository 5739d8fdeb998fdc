"""The JSON API against its contract, docs/openapi.json: schemathesis sends every operation the requests the document
allows and the ones it forbids, and checks every answer against the document.

Real `smashtag serve` processes search a small demo corpus and stand-ins for Mastodon, Bluesky and X, and are asked
as three callers: the owner (a loopback server with no people added: everything is allowed), a visitor (a server
with people added and `--public`, no credentials) and a viewer (the same server, with a viewer's token); a revoked
token gets a few cases per operation. For each operation schemathesis runs the document's examples, its coverage
cases (each parameter at its bounds and past them, missing, empty, of the wrong type; bodies that are not the object
asked for; every method the address does not take) and a bounded number of generated cases, valid and invalid.
Every answer must be no server error, a status the operation documents, with the documented media type, headers and
schema; invalid input must get a documented 4xx, and a method the address does not take 405 with `Allow`. The one
limit on a term, which JSON Schema cannot state, is tried on its own on every operation that takes one.

Each operation goes on through all its cases and then fails with every distinct kind of failure it met, each with
the request that first showed it (a curl line) and how many cases met it, so one run says everything that is wrong.
The summary ends with a line counting the cases. No browser: nothing here opens a page.
"""
import collections
import subprocess
import time
import urllib.parse

import hypothesis
import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, Phase
from schemathesis.core.failures import FailureGroup

import stub_bluesky
import stub_mastodon
from conftest import BINARY, HOSTILE, ROOT, start_server
from stub_http import JSONHandler, serve

SPEC = ROOT / "docs" / "openapi.json"
# Generated cases per operation and caller, beyond the examples and coverage cases: enough to reach every
# parameter's kinds of value, few enough that the module runs in about two minutes on two cores.
GENERATED = 150
TIMEOUT = 15
CALLERS = ["owner", "visitor", "viewer"]

CONFIG = schemathesis.Config.from_dict({
    "checks": {
        # The query language, the intervals and the periods are grammars no JSON Schema states: a string the
        # document allows may still be a query Smashtag cannot read, which is a documented 400, not a broken promise.
        "positive_data_acceptance": {"enabled": False},
    },
    "phases": {"stateful": {"enabled": False}},
    "operations": [
        # A live stream never ends: its first event is enough to judge it.
        {"include-path": "/api/popularity/events", "max-stream-events": 1},
    ],
})

schema = schemathesis.openapi.from_path(SPEC, config=CONFIG)

# What was sent and answered, for the summary line.
CASES = collections.Counter()
STATUSES = collections.Counter()
OPERATIONS = set()
DISTINCT = []
STARTED = []


class XStandIn(JSONHandler):
    """The X API v2's recent search (the conftest's hostile tweets on a first page, nothing after it) and its lookup
    by ids (those tweets, each beginning its own conversation; any other id in `errors`, as X answers it)."""

    def do_GET(self):
        url = urllib.parse.urlsplit(self.path)
        query = urllib.parse.parse_qs(url.query)
        if url.path == "/2/tweets":
            return self.lookup(query.get("ids", [""])[0].split(","))
        if url.path != "/2/tweets/search/recent":
            return self.answer(404, {"title": "Not Found Error", "detail": "Sorry, that page does not exist."})
        if {"since_id", "until_id", "next_token"} & query.keys():
            return self.answer(200, {"meta": {"result_count": 0}})
        self.answer(200, HOSTILE)

    def lookup(self, ids):
        known = {tweet["id"]: tweet for tweet in HOSTILE["data"]}
        answer = {}
        found = [dict(known[i], conversation_id=i) for i in ids if i in known]
        if found:
            answer.update(data=found, includes=HOSTILE["includes"])
        missing = [i for i in ids if i not in known]
        if missing:
            answer["errors"] = [{
                "value": i, "detail": f"Could not find tweet with ids: [{i}].", "title": "Not Found Error",
                "resource_type": "tweet", "parameter": "ids", "resource_id": i,
                "type": "https://api.twitter.com/2/problems/resource-not-found"} for i in missing]
        self.answer(200, answer)


class ContractReport:
    """A plugin for this module's items: an operation whose cases broke the contract fails with every distinct
    failure (the cases themselves never raise, so that all of them run); and a line says how many cases ran."""

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item, call):
        outcome = yield
        report = outcome.get_result()
        found = getattr(item, "contract_failures", None)
        if call.when == "call" and found and report.passed:
            report.outcome = "failed"
            report.longrepr = "\n\n".join(
                f"[{entry['count']} cases] {entry['report']}"
                + "".join(f"\nAlso:\n    {curl}" for curl in entry["curls"]) for entry in found.values())

    def pytest_terminal_summary(self, terminalreporter):
        if not STARTED:
            return
        seconds = time.monotonic() - STARTED[0]
        callers = ", ".join(f"{caller} {count}" for caller, count in CASES.items())
        statuses = ", ".join(f"{status}: {count}" for status, count in sorted(STATUSES.items()))
        terminalreporter.write_line(
            f"API contract: {sum(CASES.values())} test cases ({callers}) over {len(OPERATIONS)} operations in "
            f"{seconds:.0f} s; {len(DISTINCT)} distinct failures among the generated cases; answers by status: "
            f"{statuses}")


def report(config):
    """Registers `ContractReport` once, when the first case is about to run."""
    if not config.pluginmanager.has_plugin("api-contract-report"):
        config.pluginmanager.register(ContractReport(), "api-contract-report")
        STARTED.append(time.monotonic())


def serve_demo(request, tmp_path_factory, name, options=(), people=None):
    """A server on a demo corpus with stand-in Mastodon, Bluesky and X; `people`, when given, adds its people first
    (a function of the data directory, whose answer is returned). Returns the process, its URL (no trailing slash)
    and what `people` answered."""
    data = str(tmp_path_factory.mktemp(f"smashtag-contract-{name}-"))
    subprocess.run([str(BINARY), "corpus", "generate", "--tweets", "1000", "--data-dir", data], check=True,
                   capture_output=True)
    extra = people(data) if people else None
    environment = {
        "SMASHTAG_MASTODON_INSTANCE": stub_mastodon.start(),
        **stub_bluesky.start(),
        "SMASHTAG_X_API_BASE": serve(XStandIn),
        "SMASHTAG_X_BEARER_TOKEN": "contract-test-token",
    }
    # Only the server's errors reach the log: each 5xx, with what went wrong inside.
    process, url = start_server(data, environment, ["--log-level", "error", *options])
    stub_mastodon.PICTURES = stub_bluesky.PICTURES = url
    report(request.config)
    return process, url.rstrip("/"), extra


def stop(process):
    process.terminate()
    assert process.wait(timeout=15) == 0, "the server did not shut down cleanly on SIGTERM"


def seed(url, headers):
    """Terms in Recents with their counts, and one tracked, so that examples find something."""
    for term in ("#swift", "#clips"):
        answer = requests.get(url + "/api/search", params={"q": term}, headers=headers, timeout=TIMEOUT)
        assert answer.status_code == 200, answer.text


@pytest.fixture(scope="module")
def owner_server(request, tmp_path_factory):
    """Loopback, no people added: every request is the owner's."""
    process, url, _ = serve_demo(request, tmp_path_factory, "owner")
    seed(url, {})
    answer = requests.post(url + "/api/tracking", json={"term": "#swift", "every": "1h"}, timeout=TIMEOUT)
    assert answer.status_code == 201, answer.text
    yield url
    stop(process)


@pytest.fixture(scope="module")
def team_server(request, tmp_path_factory):
    """People added and `--public`: a visitor reads without credentials; a viewer has a token; another token of
    theirs was revoked. Yields the URL and the two tokens."""
    def token(data):
        made = subprocess.run([str(BINARY), "token", "create", "vera", "--role", "viewer", "--data-dir", data],
                              check=True, capture_output=True, text=True)
        return next(word for word in made.stdout.split() if word.startswith("smashtag_"))

    def add_people(data):
        for name, role in (("vera", "viewer"), ("ada", "admin")):
            subprocess.run([str(BINARY), "user", "add", name, "--role", role, "--data-dir", data], check=True,
                           capture_output=True, stdin=subprocess.DEVNULL)
        viewer, revoked = token(data), token(data)
        subprocess.run([str(BINARY), "token", "revoke", revoked.split("_")[1], "--data-dir", data], check=True,
                       capture_output=True)
        return viewer, revoked

    process, url, tokens = serve_demo(request, tmp_path_factory, "team", options=["--public"], people=add_people)
    seed(url, {"Authorization": f"Bearer {tokens[0]}"})
    yield url, tokens
    stop(process)


@pytest.fixture
def caller(request, identity):
    """Where the requests go and what they carry."""
    if identity == "owner":
        return request.getfixturevalue("owner_server"), {}
    url, (viewer, revoked) = request.getfixturevalue("team_server")
    token = {"visitor": None, "viewer": viewer, "revoked": revoked}[identity]
    return url, ({"Authorization": f"Bearer {token}"} if token else {})


@pytest.fixture
def contract_failures(request):
    """The operation's failures, each kind once with its first request and how often it came: the cases go on after
    a failure, so one run names every way an operation breaks its contract, not only the first (`ContractReport`
    fails the operation with them)."""
    report(request.config)
    found = {}
    request.node.contract_failures = found
    yield found
    DISTINCT.extend(found)


@schema.parametrize()
@pytest.mark.parametrize("identity", CALLERS)
@hypothesis.settings(
    max_examples=GENERATED, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate])
def test_the_api_keeps_its_contract(case, identity, caller, contract_failures):
    check(case, identity, caller, contract_failures)


@schema.parametrize()
@pytest.mark.parametrize("identity", ["revoked"])
@hypothesis.settings(
    max_examples=5, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck),
    phases=[Phase.explicit, Phase.generate])
def test_a_revoked_token_is_refused_as_the_contract_says(case, identity, caller, contract_failures):
    """A revoked token, a few cases per operation: every answer must still be one the document lists (for the JSON
    API, 401 in one sentence, with the security headers every response carries)."""
    check(case, identity, caller, contract_failures)


# The one limit on a term (GUIDE: at most 1,000 characters once white space is collapsed, no control characters),
# which JSON Schema cannot state exactly, tried on every operation that takes a term: each is a 400 in one sentence.
# The 200,000-character one makes an address longer than the server reads (its request head, 80 KB): a 431 in one
# sentence, with the headers every response carries; in a POST's body it is a 400 as the others.
BAD_TERMS = {
    "1,001 characters": "x" * 1001,
    "10,000 characters": "#" + "x" * 9999,
    "200,000 characters": "x" * 200_000,
    "a control character": "a\u0001b",
    "a C1 control character": "a\u009bb",
    "only white space": " \t\n ",
}
TERM_OPERATIONS = [
    ("GET", "/api/search", "q"), ("GET", "/api/popularity", "term"), ("GET", "/api/popularity/events", "term"),
    ("GET", "/api/popularity/trend", "term"), ("GET", "/api/popularity/network", "term"),
    ("GET", "/api/popularity/posts", "term"), ("POST", "/api/tracking", "term"),
    ("POST", "/api/tracking/delete", "term"), ("GET", "/api/volume", "term"),
]


@pytest.mark.parametrize("kind", list(BAD_TERMS))
@pytest.mark.parametrize("method, path, name", TERM_OPERATIONS, ids=[f"{m} {p}" for m, p, _ in TERM_OPERATIONS])
def test_a_term_too_long_or_with_a_control_character_is_refused(owner_server, method, path, name, kind):
    operation = schema[path][method]
    if method == "POST":
        case = operation.Case(body={name: BAD_TERMS[kind]}, media_type="application/json")
    else:
        mention = {"mention": "#swift"} if path.endswith("/trend") else {}
        case = operation.Case(query={name: BAD_TERMS[kind], **mention})
    CASES["owner"] += 1
    OPERATIONS.add(operation.label)
    response = case.call(base_url=owner_server, timeout=TIMEOUT)
    STATUSES[response.status_code] += 1
    said = f"{method} {path} with a term of {kind} answered {response.status_code}: {response.text[:200]!r}"
    head_too_large = method == "GET" and len(BAD_TERMS[kind]) > 80_000
    assert response.status_code == (431 if head_too_large else 400), said
    try:
        case.validate_response(response, transport_kwargs={"base_url": owner_server, "timeout": TIMEOUT})
    except FailureGroup as group:
        pytest.fail(f"{said}\n\n" + "\n".join(str(failure) for failure in group.exceptions), pytrace=False)


def check(case, identity, caller, failures):
    """Sends the case as `caller` and notes every way its answer breaks the contract."""
    url, headers = caller
    CASES[identity] += 1
    OPERATIONS.add(case.operation.label)
    try:
        response = case.call(base_url=url, headers=headers, timeout=TIMEOUT)
    except requests.RequestException as error:
        curl = case.as_curl_command(headers, base_url=url)
        said = f"No answer: {type(error).__name__}: {error}\n\n    {curl}"
        note(failures, ("no answer", type(error).__name__), said, curl)
        return
    STATUSES[response.status_code] += 1
    try:
        case.validate_response(response, headers=headers, transport_kwargs={"base_url": url, "timeout": TIMEOUT})
    except FailureGroup as group:
        first = (group.exceptions[0].message or "").split("\n")[0]
        key = (tuple(sorted(failure.title for failure in group.exceptions)), response.status_code, first)
        note(failures, key, str(group), case.as_curl_command(headers, base_url=url))


def note(failures, key, text, curl):
    """Counts a failure of kind `key`: the first one's report, and a few more of its requests (the same failure
    often has several causes)."""
    entry = failures.setdefault(key, {"count": 0, "report": text, "curls": []})
    entry["count"] += 1
    if entry["count"] > 1 and len(entry["curls"]) < 3:
        entry["curls"].append(curl)
