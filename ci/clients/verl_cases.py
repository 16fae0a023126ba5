"""verl's own reward function, `verl.utils.reward_score.sandbox_fusion.compute_score`,
against `judge sandbox`, beside the server's `/v1/evaluate` for the same programs.

Usage: python verl_cases.py BASE_URL PROBLEMS_DIR PROBLEM...

The server must have been started with `--problems PROBLEMS_DIR`. For each problem it
scores three Python programs, each as a completion with a fenced code block, as verl's
trainer passes them: the package's accepted submission, its first wrong Python
submission (or, without one, a program that prints 0), and `last_wrong`, the accepted
program except that it answers the problem's last test wrongly. verl gets the package's
tests as `{"inputs", "outputs"}` in the judge's order (data/sample then data/secret).

It prints one JSON list, one object per (problem, program): verl's score with
`continuous=True` (what verl's trainer uses: only the first min(N, 10) tests count) and
with `continuous=False` (all N tests), verl's per-test results, and `/v1/evaluate`'s
fraction for the named problem and for the first 10 tests given inline (checked case-
and space-sensitively, as verl compares).
"""

import json
import os
import pathlib
import sys
from importlib.metadata import version

from verl.utils.reward_score.sandbox_fusion import compute_score

import arena_http


EXACT = {"case_sensitive": True, "space_change_sensitive": True}


def last_wrong(accepted, last_input):
    """The accepted program, except that on `last_input` it prints -1."""
    return (
        "import io, sys\n"
        "_data = sys.stdin.read()\n"
        f"if _data == {last_input!r}:\n"
        "    print(-1)\n"
        "else:\n"
        "    sys.stdin = io.StringIO(_data)\n"
        f"    exec(compile({accepted!r}, 'main.py', 'exec'), {{'__name__': '__main__'}})\n"
    )


def programs(package, tests):
    accepted = arena_http.accepted_source(package, "py")
    wrong_dir = pathlib.Path(package) / "submissions" / "wrong_answer"
    wrong = sorted(wrong_dir.glob("*.py")) if wrong_dir.is_dir() else []
    yield "accepted", accepted
    yield "wrong", wrong[0].read_text() if wrong else "print(0)\n"
    yield "last_wrong", last_wrong(accepted, tests[-1][1])


def main():
    base, problems_dir, names = sys.argv[1].rstrip("/"), sys.argv[2], sys.argv[3:]
    rows = []
    for name in names:
        package = os.path.join(problems_dir, name)
        tests = arena_http.package_tests(package)
        truth = {"inputs": [t[1] for t in tests], "outputs": [t[2] for t in tests]}
        for kind, source in programs(package, tests):
            completion = f"Here is my solution.\n```python\n{source}```\n"
            continuous, meta = compute_score(base + "/run_code", None, 1024, completion, truth,
                                             continuous=True)
            whole, _ = compute_score(base + "/run_code", None, 1024, completion, truth,
                                     continuous=False)
            program = [{"language": "python", "source": source}]
            status, named = arena_http.evaluate(base, program, problem=name)
            # Inline tests are checked by the default validator, which (as Kattis') ignores
            # case and spacing unless told: verl compares exactly, so this asks the same.
            status10, first10 = arena_http.evaluate(base, program, tests=tests[:10], checker=EXACT)
            row = {"problem": name, "program": kind, "tests": len(tests),
                   "verl_continuous": continuous, "verl_all": whole,
                   "verl_results": [m.get("status") for m in meta],
                   "evaluate_status": status, "evaluate_first10_status": status10}
            if status == 200:
                result = named["results"][0]
                row["evaluate_fraction"] = arena_http.fraction(result)
                row["evaluate_verdicts"] = arena_http.verdicts(result)
            else:
                row["evaluate_error"] = named
            if status10 == 200:
                row["evaluate_first10_fraction"] = arena_http.fraction(first10["results"][0])
            else:
                row["evaluate_first10_error"] = first10
            rows.append(row)
    print(json.dumps({"client": "verl", "version": version("verl"), "cases": rows}))


if __name__ == "__main__":
    main()
