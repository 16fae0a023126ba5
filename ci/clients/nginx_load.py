"""Load through nginx in front of two `judge sandbox` instances, one killed midway.

Usage: python nginx_load.py NGINX_URL A_URL B_URL B_PID REQUESTS CONCURRENCY KILL_AFTER

It sends REQUESTS requests through nginx, CONCURRENCY at a time: /run_code and
/v1/evaluate in turn, Python and C++, right and wrong sums of two random numbers, each
with the answer it must get. After KILL_AFTER answers it reads both instances' /metrics
straight (not through nginx) and kills instance B (SIGKILL, pid B_PID) while the other
requests are in flight. Every request ends in one outcome: an answer (HTTP status and
whether its verdict is the expected one) or the error its client saw. It prints one JSON
document: the outcomes, both instances' /metrics text before the kill, A's after.
"""

import json
import os
import random
import signal
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

import arena_http

PROGRAMS = {
    ("python", True): "a, b = map(int, input().split())\nprint(a + b)\n",
    ("python", False): "a, b = map(int, input().split())\nprint(a + b + 1)\n",
    ("cpp", True): "#include <cstdio>\nint main(){long a,b;scanf(\"%ld %ld\",&a,&b);printf(\"%ld\\n\",a+b);}\n",
    ("cpp", False): "#include <cstdio>\nint main(){long a,b;scanf(\"%ld %ld\",&a,&b);printf(\"%ld\\n\",a+b+1);}\n",
}


def one(nginx, index, rng_seed):
    rng = random.Random(rng_seed)
    language = "python" if index % 2 == 0 else "cpp"
    right = rng.random() < 0.5
    a, b = rng.randint(0, 10**6), rng.randint(0, 10**6)
    stdin, answer = f"{a} {b}\n", f"{a + b}\n"
    source = PROGRAMS[(language, right)]
    api = "run_code" if (index // 2) % 2 == 0 else "evaluate"
    outcome = {"index": index, "api": api, "language": language, "right": right}
    try:
        if api == "run_code":
            status, body = arena_http.request("POST", nginx + "/run_code", {
                "code": source, "language": language, "stdin": stdin, "run_timeout": 5}, timeout=120)
            if status == 200:
                outcome["status"] = body.get("status")
                got = ((body.get("run_result") or {}).get("stdout"))
                outcome["correct"] = body.get("status") == "Success" and (got == answer) == right
        else:
            status, body = arena_http.evaluate(nginx, [{"language": language, "source": source}],
                                               tests=[("t", stdin, answer)], timeout=120)
            if status == 200:
                verdict = arena_http.verdicts(body["results"][0])[0]
                outcome["status"] = verdict
                outcome["correct"] = verdict == ("AC" if right else "WA")
        outcome["http"] = status
        if status != 200:
            outcome["body"] = str(body)[:200]
    except Exception as e:  # the failure the client saw (refused, reset, timed out)
        outcome["error"] = f"{type(e).__name__}: {e}"[:200]
    return outcome


def main():
    nginx, a_url, b_url, b_pid, total, concurrency, kill_after = sys.argv[1:8]
    total, concurrency, kill_after = int(total), int(concurrency), int(kill_after)
    done = []
    lock = threading.Lock()
    state = {"killed": False, "metrics_before": None}

    def task(i):
        outcome = one(nginx, i, i * 7919)
        with lock:
            outcome["after_kill"] = state["killed"]
            done.append(outcome)
            kill = len(done) >= kill_after and not state["killed"]
            if kill:
                state["killed"] = True
        if kill:
            state["metrics_before"] = {
                "a": arena_http.request("GET", a_url + "/metrics")[1],
                "b": arena_http.request("GET", b_url + "/metrics")[1]}
            os.kill(int(b_pid), signal.SIGKILL)

    with ThreadPoolExecutor(concurrency) as pool:
        list(pool.map(task, range(total)))
    after = arena_http.request("GET", a_url + "/metrics")[1]
    print(json.dumps({"sent": total, "outcomes": sorted(done, key=lambda o: o["index"]),
                      "metrics_before_kill": state["metrics_before"], "metrics_a_after": after}))


if __name__ == "__main__":
    main()
