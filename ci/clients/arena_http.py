"""What the client scripts of ci/clients share: JSON over HTTP with the standard library,
the tests of an easy-set package in the judge's order, and the native `/v1/evaluate` call.

The scripts are driven by tests/tests/reward_clients.rs and ci/bench-reward; each prints
one JSON document of what it observed, and the Rust tests decide what is right.
"""

import json
import pathlib
import urllib.error
import urllib.request


def request(method, url, body=None, timeout=120, headers=None):
    """(status, parsed JSON or text) of one HTTP request; a connection failure raises."""
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method)
    req.add_header("content-type", "application/json")
    for name, value in (headers or {}).items():
        req.add_header(name, value)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            status, raw = resp.status, resp.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    text = raw.decode("utf-8", "replace")
    try:
        return status, json.loads(text)
    except ValueError:
        return status, text


def package_tests(package):
    """[(name, input, answer)] of a package's data/sample then data/secret, each folder in
    name order: the order in which the judge runs them."""
    tests = []
    for group in ("sample", "secret"):
        folder = pathlib.Path(package) / "data" / group
        if not folder.is_dir():
            continue
        for case in sorted(folder.glob("*.in")):
            answer = case.with_suffix(".ans")
            tests.append((f"{group}/{case.stem}", case.read_text(), answer.read_text()))
    return tests


def accepted_source(package, extension):
    """The text of the package's first accepted submission with `extension`, or None."""
    folder = pathlib.Path(package) / "submissions" / "accepted"
    found = sorted(folder.glob(f"*.{extension}"))
    return found[0].read_text() if found else None


def evaluate(base, programs, problem=None, tests=None, checker=None, stop_at_first_failure=False,
             timeout=600):
    """POST /v1/evaluate with `programs` ([{language, source}]) against a problem of the
    server's packages or inline tests ([(name, input, answer)], the names unused, checked
    by the default validator with `checker`'s options): (status, body)."""
    body = {"programs": programs}
    if problem is not None:
        body["problem"] = problem
    if tests is not None:
        body["tests"] = [{"input": i, "output": o} for _, i, o in tests]
    if checker is not None:
        body["checker"] = checker
    if stop_at_first_failure:
        body["stop_at_first_failure"] = True
    return request("POST", base.rstrip("/") + "/v1/evaluate", body, timeout=timeout)


def fraction(program_result):
    """The fraction-of-tests-passed score of one program's result in an evaluate answer."""
    return program_result["scores"]["fraction"]


def verdicts(program_result):
    """The per-test verdicts of one program's result, in test order."""
    return [t["verdict"] for t in program_result["tests"]]
