"""The GRPO-shaped reward benchmark of ci/bench-reward (BENCHMARKS.md).

Usage: python bench_reward.py BASE_URL PROBLEMS_DIR N [LANGUAGE...]

For each of the first N problems of PROBLEMS_DIR (name order) that have accepted Python
and C++ submissions, and for each language (python, cpp by default), a group of 8
programs: 4 copies of the accepted submission and 4 wrong ones (the same program with a
stray character written first), each copy made distinct by a comment, as a GRPO group's
completions are. Every program runs against all of its problem's tests, three ways:

  (i)   verl's way: one POST /run_code per (program, test), 64 in flight (verl's
        default max_concurrent), a 504 retried as verl retries it, the output compared as
        verl does (trailing newlines stripped, otherwise exact);
  (ii)  one POST /v1/evaluate per group (8 programs, the problem named), all groups in
        flight at once;
  (i')  for C++ only, verl's way as SandboxFusion serves it: each request's source made
        distinct per test (a comment), so that every request compiles;
  (iii) bare: the same programs compiled once (g++ with the judge's flags) and run by a
        plain subprocess loop on the host, one worker per core, no sandbox.

Each way gets its own copies of the sources (the comment names the way), so no way finds
another's compiled programs in the server's cache. It prints one JSON document: per
language and way, tests, seconds, tests/s, tests/s per core, programs (tasks) per second
per core, how many tests each way's verdict agreed with what the program is (right or
wrong), and the faults of the service each way saw.
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
# In every source, so that no way of this run, nor a run before, finds the programs
# already compiled in the server's (persistent) compile cache.
RUN = f"{time.time_ns():x}"
# Faults of the service seen by each way (a judge_error program, a non-200 answer, a
# SandboxError), reported beside the figures: such a test counts as not passed.
FAULTS = {}
CPP_FLAGS = ["g++", "-std=gnu++20", "-O2", "-pipe", "-DONLINE_JUDGE"]
# Debian's interpreter, the one the sandbox's root filesystem has, run with -s as the judge
# runs it (a version manager's `python3` shim would add its own start-up to every run).
PYTHON = "/usr/bin/python3" if os.path.exists("/usr/bin/python3") else "python3"


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
        programs.append({"source": f"{text}\n{comment} run {RUN}, way {way}, completion {i}\n",
                         "right": right})
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


def verl_way(base, groups, way, per_test_source=False):
    jobs = [(g, p, t) for g in groups for p in range(GROUP) for t in range(len(g["tests"]))]

    def one(job):
        g, p, t = job
        _, stdin, answer = g["tests"][t]
        code = g["programs"][p]["source"]
        if per_test_source:  # a source of its own per test: no compile is shared
            code += ("#" if g["language"] == "python" else "//") + f" test {t}\n"
        payload = {"code": code, "language": g["language"], "stdin": stdin,
                   "compile_timeout": 10, "run_timeout": 10, "memory_limit_MB": 1024,
                   "files": {}, "fetch_files": []}
        # As verl: 3 attempts, only a 504 retried, 1 s then 2 s apart; its HTTP timeout
        # (compile + run + 10 = 30 s) is not imposed here, so a slow answer still counts.
        for attempt in range(3):
            status, body = arena_http.request("POST", base + "/run_code", payload, timeout=300)
            if status != 504 or attempt == 2:
                break
            time.sleep(1 << attempt)
        if status != 200 or body.get("status") == "SandboxError":
            FAULTS.setdefault(f"{g['language']} {way}", []).append(f"{status}: {str(body)[:120]}")
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
        out = []
        for p, result in enumerate(body["results"]):
            if result["status"] != "judged":
                FAULTS.setdefault(f"{g['language']} evaluate", []).append(
                    f"{result['status']}: {result.get('error')}")
            verdicts = arena_http.verdicts(result)
            out += [((g["key"], p, t), t < len(verdicts) and verdicts[t] == "AC")
                    for t in range(len(g["tests"]))]
        return out

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
                binaries[(g["key"], p)] = [PYTHON, "-s", str(folder / "main.py")]
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
        ways["run_code"] = timed(verl_way, base, groups_for("run_code"), "run_code")
        if language != "python":
            # As SandboxFusion serves verl: every request compiles (its sources differ
            # per test here, so this server's compile cache cannot help).
            ways["run_code_compile_each"] = timed(verl_way, base, groups_for("each"),
                                                  "run_code_compile_each", True)
        with tempfile.TemporaryDirectory() as work:
            ways["bare"] = timed(bare_way, groups_for("bare"), work)
        expected = {(g["key"], p, t): p < GROUP // 2 for g in groups_for("any")
                    for p in range(GROUP) for t in range(len(g["tests"]))}
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
        if "run_code_compile_each" in figures:
            figures["ratio_evaluate_over_run_code_compile_each"] = round(
                figures["evaluate"]["tests_per_s"] / figures["run_code_compile_each"]["tests_per_s"], 2)
        figures["ratio_evaluate_over_bare"] = round(
            figures["evaluate"]["tests_per_s"] / figures["bare"]["tests_per_s"], 2)
        report["languages"][language] = figures
    # Each fault once, with how often it was seen.
    report["faults"] = {way: {text: seen.count(text) for text in sorted(set(seen))}
                        for way, seen in FAULTS.items()}
    print(json.dumps(report))


if __name__ == "__main__":
    main()
