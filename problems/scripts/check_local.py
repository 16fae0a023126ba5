#!/usr/bin/env python3
"""A rough local stand-in for `judge verify`, for problem setters without the judge.

    check_local.py answers PKG      write every data/**/*.ans with the package's first
                                    accepted C++ submission (samples are compared, not written)
    check_local.py verify PKG...    judge every submission and compare with its folder

No sandbox: time is the child's CPU time, memory is its peak RSS (ru_maxrss), output is
the size of stdout. The authoritative check is `judge verify`.

Custom output validators are run in the convention of problem.yaml's `validator_convention`:
`kattis` (`validate in ans feedback_dir/ [args] < out`: 42 AC, 43 WA, else JE) or `testlib`
(`checker in out ans`: 0 AC, 1 or 2 WA, else JE). Interactive problems are not supported.
"""
import os
import resource
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import yaml  # PyYAML

EXPECTED = {
    "accepted": {"AC"},
    "wrong_answer": {"WA", "OLE"},
    "time_limit_exceeded": {"TLE"},
    "run_time_error": {"RTE", "MLE"},
    "memory_limit_exceeded": {"MLE"},
    "output_limit_exceeded": {"OLE"},
    "compile_error": {"CE"},
}


def limits(pkg):
    with open(os.path.join(pkg, "problem.yaml")) as f:
        meta = yaml.safe_load(f) or {}
    lim = meta.get("limits") or {}
    time_limit = float(lim.get("time_limit", 0) or 0)
    if not time_limit and os.path.exists(os.path.join(pkg, ".timelimit")):
        time_limit = float(open(os.path.join(pkg, ".timelimit")).read())
    flags = str(meta.get("validator_flags", "")).split()
    tg = os.path.join(pkg, "data", "test_group.yaml")
    if os.path.exists(tg):
        flags = (yaml.safe_load(open(tg)) or {}).get("output_validator_args", flags)
        if isinstance(flags, str):
            flags = flags.split()
    modern = str(meta.get("problem_format_version", "legacy")) not in ("legacy", "legacy-icpc")
    folder = os.path.join(pkg, "output_validator" if modern else "output_validators")
    custom = ("custom" in str(meta.get("validation", ""))) if not modern else os.path.isdir(folder)
    interactive = "interactive" in str(meta.get("validation", "")) + str(meta.get("type", ""))
    return {
        "validator": validator_source(folder) if custom and not interactive else None,
        "interactive": interactive,
        "convention": meta.get("validator_convention", "kattis"),
        "time": time_limit or 1.0,
        "memory": float(lim.get("memory", 2048)) * 2**20,
        "output": float(lim.get("output", 8)) * 2**20,
        "flags": flags,
    }


def tests(pkg):
    res = []
    for part in ["sample", "secret"]:
        for dirpath, dirnames, filenames in os.walk(os.path.join(pkg, "data", part)):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith(".in"):
                    res.append(os.path.join(dirpath, name))
    # depth-first, lexicographic: os.walk visits a folder's files before its subfolders
    return res


def validator_source(folder):
    """The one source file directly in `folder` or in one of its subfolders."""
    found = []
    for dirpath, dirnames, filenames in os.walk(folder):
        if os.path.relpath(dirpath, folder).count(os.sep) > 0:
            continue
        found += [os.path.join(dirpath, f) for f in filenames if f.rsplit(".", 1)[-1] in ("c", "cpp", "cc", "py", "java")]
    assert len(found) == 1, f"{folder}: expected one validator source, found {found}"
    return found[0]


def custom_verdict(lim, validator, test, out, work):
    """Runs the custom validator on one output: AC, WA or JE."""
    ans = test[:-3] + ".ans"
    if lim["convention"] == "testlib":
        res = subprocess.run(validator + [test, out, ans], capture_output=True)
        verdict = {0: "AC", 1: "WA", 2: "WA"}.get(res.returncode, "JE")
        message = res.stderr.decode(errors="replace").strip()
    else:
        feedback = tempfile.mkdtemp(dir=work) + "/"
        with open(out, "rb") as f:
            res = subprocess.run(validator + [test, ans, feedback] + lim["flags"], stdin=f, capture_output=True)
        verdict = {42: "AC", 43: "WA"}.get(res.returncode, "JE")
        path = os.path.join(feedback, "judgemessage.txt")
        message = open(path, errors="replace").read().strip() if os.path.exists(path) else ""
        if verdict == "JE":
            message += res.stderr.decode(errors="replace").strip()
    return verdict, f"exit {res.returncode}: {message}"


def compile_source(src, work):
    ext = os.path.splitext(src)[1]
    if ext == ".cpp":
        exe = os.path.join(work, "a.out")
        ok = subprocess.run(["g++", "-std=c++20", "-O2", "-o", exe, src], capture_output=True).returncode == 0
        return [exe] if ok else None
    if ext == ".c":
        exe = os.path.join(work, "a.out")
        ok = subprocess.run(["gcc", "-std=c17", "-O2", "-o", exe, src, "-lm"], capture_output=True).returncode == 0
        return [exe] if ok else None
    if ext == ".py":
        check = "import sys; compile(open(sys.argv[1]).read(), sys.argv[1], 'exec')"
        ok = subprocess.run(["python3", "-c", check, src], capture_output=True).returncode == 0
        return ["python3", src] if ok else None
    if ext == ".java":
        ok = subprocess.run(["javac", "-d", work, src], capture_output=True).returncode == 0
        cls = os.path.splitext(os.path.basename(src))[0]
        return ["java", "-Xss64m", "-cp", work, cls] if ok else None
    raise SystemExit(f"unknown language: {src}")


def rss(pid):
    """The resident set size of a running process, in bytes (0 when it is gone)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def run(cmd, infile, outfile, wall, output_limit=None, memory_limit=None):
    def limit_output():
        if output_limit is not None:
            # One byte over the limit may be written, so that "over the limit" is visible.
            resource.setrlimit(resource.RLIMIT_FSIZE, (int(output_limit) + 1, int(output_limit) + 1))

    with open(infile, "rb") as fin, open(outfile, "wb") as fout:
        proc = subprocess.Popen(
            cmd, stdin=fin, stdout=fout, stderr=subprocess.DEVNULL, start_new_session=True, preexec_fn=limit_output
        )
        start = time.monotonic()
        killed = False
        while True:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if pid:
                break
            if time.monotonic() - start > wall:
                os.killpg(proc.pid, signal.SIGKILL)
                killed = True
            if memory_limit is not None and rss(proc.pid) > memory_limit:
                os.killpg(proc.pid, signal.SIGKILL)  # as the kernel's memory cgroup would
            time.sleep(0.005)
    cpu = usage.ru_utime + usage.ru_stime
    return status, cpu, usage.ru_maxrss * 1024, killed, time.monotonic() - start


def tokens(data):
    return data.split()


def same(judge, team, flags):
    tol_abs = tol_rel = None
    i = 0
    while i < len(flags):
        if flags[i] in ("float_tolerance", "float_absolute_tolerance", "float_relative_tolerance"):
            eps = float(flags[i + 1])
            if flags[i] != "float_relative_tolerance":
                tol_abs = eps
            if flags[i] != "float_absolute_tolerance":
                tol_rel = eps
            i += 2
        else:
            i += 1
    a, b = tokens(judge), tokens(team)
    if len(a) != len(b):
        return False
    for x, y in zip(a, b):
        if tol_abs is not None or tol_rel is not None:
            try:
                fx = float(x)
            except ValueError:
                fx = None
            if fx is not None:
                try:
                    fy = float(y)
                except ValueError:
                    return False
                d = abs(fx - fy)
                if not ((tol_abs is not None and d <= tol_abs) or (tol_rel is not None and d <= tol_rel * abs(fx))):
                    return False
                continue
        if x.lower() != y.lower():
            return False
    return True


def judge(pkg, src, lim, all_tests=False, show=False):
    with tempfile.TemporaryDirectory() as work:
        validator = None
        if lim["validator"]:
            os.mkdir(os.path.join(work, "validator"))
            validator = compile_source(lim["validator"], os.path.join(work, "validator"))
            assert validator, f"the validator does not compile: {lim['validator']}"
        cmd = compile_source(src, work)
        if cmd is None:
            return "CE", 0.0, 0
        out = os.path.join(work, "out")
        max_cpu = max_mem = 0
        for t in tests(pkg):
            status, cpu, mem, killed, wall = run(cmd, t, out, 3 * lim["time"] + 1, lim["output"], lim["memory"])
            max_cpu, max_mem = max(max_cpu, cpu), max(max_mem, mem)
            if show:
                print(f"    {os.path.relpath(t, pkg)}: cpu {cpu:.2f}s wall {wall:.2f}s mem {mem / 2**20:.0f}MiB")
            size = os.path.getsize(out)
            if killed or cpu > lim["time"]:
                verdict = "TLE"
            elif mem > lim["memory"]:
                verdict = "MLE"
            elif size > lim["output"]:
                verdict = "OLE"
            elif status != 0:
                verdict = "RTE"
            elif validator:
                verdict, message = custom_verdict(lim, validator, t, out, work)
                if show:
                    print(f"      validator {message[:200]!r}")
            else:
                with open(t[:-3] + ".ans", "rb") as f:
                    ans = f.read()
                with open(out, "rb") as f:
                    verdict = "AC" if same(ans, f.read(), lim["flags"]) else "WA"
            if verdict != "AC" and not all_tests:
                return verdict, max_cpu, max_mem
        return "AC", max_cpu, max_mem


def answers(pkg):
    lim = limits(pkg)
    assert not lim["validator"] and not lim["interactive"], "custom validation: the generator writes the answers"
    srcs = sorted(f for f in os.listdir(os.path.join(pkg, "submissions", "accepted")) if f.endswith(".cpp"))
    src = os.path.join(pkg, "submissions", "accepted", srcs[0])
    with tempfile.TemporaryDirectory() as work:
        cmd = compile_source(src, work)
        for t in tests(pkg):
            ans = t[:-3] + ".ans"
            out = os.path.join(work, "out")
            status, cpu, mem, killed, wall = run(cmd, t, out, 60)
            assert status == 0 and not killed, (t, status)
            print(f"  {os.path.relpath(t, pkg)}: cpu {cpu:.2f}s mem {mem / 2**20:.0f}MiB (limit {lim['time']}s)")
            if "/sample/" in t and os.path.exists(ans):
                assert same(open(ans, "rb").read(), open(out, "rb").read(), lim["flags"]), f"sample differs: {t}"
            else:
                shutil.copy(out, ans)


def verify(pkgs):
    bad = 0
    for pkg in pkgs:
        lim = limits(pkg)
        if lim["interactive"]:
            print(f"{pkg}: interactive, not supported here (use judge verify)")
            continue
        print(f"{pkg}: time {lim['time']}s memory {lim['memory'] / 2**20:.0f}MiB flags {lim['flags']}")
        base = os.path.join(pkg, "submissions")
        for folder in sorted(os.listdir(base)):
            for name in sorted(os.listdir(os.path.join(base, folder))):
                src = os.path.join(base, folder, name)
                verdict, cpu, mem = judge(pkg, src, lim, show="-v" in sys.argv)
                ok = verdict in EXPECTED[folder]
                bad += not ok
                print(f"  {'ok  ' if ok else 'FAIL'} {folder}/{name}: {verdict} (max cpu {cpu:.2f}s, max mem {mem / 2**20:.0f}MiB)")
    return bad


if __name__ == "__main__":
    if sys.argv[1] == "answers":
        answers(sys.argv[2])
    else:
        sys.exit(1 if verify([a for a in sys.argv[2:] if a != "-v"]) else 0)
