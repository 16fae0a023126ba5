"""The GRPO-shaped reward benchmark of ci/bench-reward (BENCHMARKS.md).

Usage: python bench_reward.py BASE_URL PROBLEMS_DIR N [LANGUAGE...]

For each of the first N problems of PROBLEMS_DIR (name order) that have accepted Python
and C++ submissions, and for each language (python, cpp by default), a group of 8
programs: 4 copies of the accepted submission and 4 wrong ones (the same program with a
stray character written first), each copy made distinct by a comment, as a GRPO group's
completions are. Every program runs against all of its problem's tests, three ways:

  (i)   verl's way: one POST /run_code per (program, test), 64 in flight (verl's
        default max_concurrent), the output compared as verl does (trailing newlines
        stripped, otherwise exact);
  (ii)  one POST /v1/evaluate per group (8 programs, the problem named), all groups in
        flight at once;
  (iii) bare: the same programs compiled once (g++ with the judge's flags) and run by a
        plain subprocess loop on the host, one worker per core, no sandbox.

Each way gets its own copies of the sources (the comment names the way), so no way finds
another's compiled programs in the server's cache. It prints one JSON document: per
language and way, tests, seconds, tests/s, tests/s per core, programs (tasks) per second
per core, and how many tests each way's verdict agreed with (ii)'s.
"""

import json
import os
import pathlib
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor

import arena_http

GROUP = 8
CPP_FLAGS = ["g++", "-std=gnu++20", "-O2", "-pipe", "-DONLINE_JUDGE"]


def group(source, language, way):
    """8 distinct programs: 4 right, 4 wrong (a stray 'x' written before the answer)."""
    comment = "#" if language == "python" else "//"
    programs = []
    for i in range(GROUP):
        text = source
        right = i < GROUP // 2
        if not right:
            if language == "python":
                text = "import sys\nsys.stdout.write('x')\n" + text
            else:
                text = "#include <cstdio>\nstatic int stray_ = std::printf(\"x\");\n" + text
        programs.append({"source": f"{text}\n{comment} way {way}, completion {i}\n", "right": right})
    return programs


def pick(problems_dir, n):
    chosen = []
    for package in sorted(pathlib.Path(problems_dir).iterdir()):
        if not (package / "problem.yaml").is_file():
            continue
        py = arena_http.accepted_source(package, "py")
        cpp = arena_http.accepted_source(package, "cpp")
        if py and cpp:
            chosen.append((package.name, {"python": py, "cpp": cpp}, arena_http.package_tests(package)))
        if len(chosen) == n:
            break
    return chosen


def same(got, answer):
    return got is not None and got.rstrip("\n") == answer.rstrip("\n")


def verl_way(base, groups):
    jobs = [(g, p, t) for g in groups for p in range(GROUP) for t in range(len(g["tests"]))]

    def one(job):
        g, p, t = job
        _, stdin, answer = g["tests"][t]
        status, body = arena_http.request("POST", base + "/run_code", {
            "code": g["programs"][p]["source"], "language": g["language"], "stdin": stdin,
            "compile_timeout": 10, "run_timeout": 10, "memory_limit_MB": 1024,
            "files": {}, "fetch_files": []}, timeout=300)
        ok = (status == 200 and body.get("status") == "Success"
              and same((body.get("run_result") or {}).get("stdout"), answer))
        return (g["key"], p, t), ok

    with ThreadPoolExecutor(64) as pool:
        return dict(pool.map(one, jobs))


def evaluate_way(base, groups):
    def one(g):
        programs = [{"language": g["language"], "source": p["source"]} for p in g["programs"]]
        status, body = arena_http.evaluate(base, programs, problem=g["problem"])
        if status != 200:
            raise RuntimeError(f"/v1/evaluate answered {status}: {body}")
        return [((g["key"], p, t), v == "AC")
                for p, result in enumerate(body["results"])
                for t, v in enumerate(arena_http.verdicts(result))]

    with ThreadPoolExecutor(max(1, len(groups))) as pool:
        return dict(kv for part in pool.map(one, groups) for kv in part)


def bare_way(groups, work):
    binaries = {}
    for g in groups:
        for p, program in enumerate(g["programs"]):
            folder = pathlib.Path(work) / f"{g['key']}-{p}"
            folder.mkdir()
            if g["language"] == "python":
                (folder / "main.py").write_text(program["source"])
                binaries[(g["key"], p)] = ["python3", str(folder / "main.py")]
            else:
                (folder / "main.cpp").write_text(program["source"])
                subprocess.run(CPP_FLAGS + ["-o", str(folder / "main"), str(folder / "main.cpp")], check=True)
                binaries[(g["key"], p)] = [str(folder / "main")]
    jobs = [(g, p, t) for g in groups for p in range(GROUP) for t in range(len(g["tests"]))]

    def one(job):
        g, p, t = job
        _, stdin, answer = g["tests"][t]
        run = subprocess.run(binaries[(g["key"], p)], input=stdin, capture_output=True, text=True, timeout=30)
        return (g["key"], p, t), run.returncode == 0 and same(run.stdout, answer)

    with ThreadPoolExecutor(os.cpu_count() or 1) as pool:
        return dict(pool.map(one, jobs))


def timed(fn, *args):
    start = time.monotonic()
    result = fn(*args)
    return result, time.monotonic() - start


def main():
    base, problems_dir, n = sys.argv[1].rstrip("/"), sys.argv[2], int(sys.argv[3])
    languages = sys.argv[4:] or ["python", "cpp"]
    cores = os.cpu_count() or 1
    problems = pick(problems_dir, n)
    report = {"problems": [p[0] for p in problems], "cores": cores, "group": GROUP, "languages": {}}
    for language in languages:
        def groups_for(way):
            return [{"key": f"{name}-{language}", "problem": name, "language": language,
                     "tests": tests, "programs": group(sources[language], language, way)}
                    for name, sources, tests in problems]

        ways = {}
        evaluated, seconds = timed(evaluate_way, base, groups_for("evaluate"))
        ways["evaluate"] = (evaluated, seconds)
        ways["run_code"] = timed(verl_way, base, groups_for("run_code"))
        with tempfile.TemporaryDirectory() as work:
            ways["bare"] = timed(bare_way, groups_for("bare"), work)
        expected = {k: k[1] < GROUP // 2 for k in evaluated}
        figures = {}
        for way, (verdicts, secs) in ways.items():
            tests = len(verdicts)
            programs = GROUP * len(problems)
            figures[way] = {
                "tests": tests, "seconds": round(secs, 3),
                "tests_per_s": round(tests / secs, 2),
                "tests_per_s_per_core": round(tests / secs / cores, 2),
                "tasks_per_s_per_core": round(programs / secs / cores, 3),
                "agree_with_expected": sum(verdicts[k] == expected[k] for k in expected),
            }
        figures["ratio_evaluate_over_run_code"] = round(
            figures["evaluate"]["tests_per_s"] / figures["run_code"]["tests_per_s"], 2)
        figures["ratio_evaluate_over_bare"] = round(
            figures["evaluate"]["tests_per_s"] / figures["bare"]["tests_per_s"], 2)
        report["languages"][language] = figures
    print(json.dumps(report))


if __name__ == "__main__":
    main()
