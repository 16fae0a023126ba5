"""The official `judge0` PyPI SDK pointed at `judge0 sandbox`'s Judge0 CE API.

Usage: python judge0_cases.py BASE_URL

It builds `judge0.Client(BASE_URL)` (which reads /languages and /config_info), then runs
single submissions with `judge0.run` (create with base64 and wait=false, then poll
/submissions/{token}?fields=*), a batch of three with `judge0.run` (POST
/submissions/batch, then poll), and one `judge0.async_run` followed by `judge0.wait`.
It prints one JSON document: the language ids, /about's version, and per case the
status id and description, stdout, time and memory as the SDK parsed them, or the
exception the SDK raised.
"""

import base64
import json
import sys
from importlib.metadata import version

import judge0
from judge0 import LanguageAlias, Submission

SUM_PY = "a, b = map(int, input().split())\nprint(a + b)\n"
SUM_CPP = "#include <cstdio>\nint main(){long a,b;scanf(\"%ld %ld\",&a,&b);printf(\"%ld\\n\",a+b);}\n"

SINGLE = [
    ("accepted_py", dict(source_code=SUM_PY, language=LanguageAlias.PYTHON)),
    ("accepted_cpp_54", dict(source_code=SUM_CPP, language=54)),
    ("accepted_cpp_alias", dict(source_code=SUM_CPP, language=LanguageAlias.CPP)),
    ("wrong_py", dict(source_code="print(6)\n", language=LanguageAlias.PYTHON)),
    ("tle_cpp", dict(source_code="int main(){volatile unsigned long x=0;for(;;)x++;}\n",
                     language=54, cpu_time_limit=1, wall_time_limit=5)),
    ("ce_cpp", dict(source_code="int main(){ return undeclared; }\n", language=54)),
    ("rte_py", dict(source_code="raise SystemExit(3)\n", language=LanguageAlias.PYTHON)),
    ("sigabrt_cpp", dict(source_code="#include <cstdlib>\nint main(){abort();}\n", language=54)),
    ("mle_cpp", dict(source_code="#include <cstdio>\n#include <vector>\nint main(){std::vector<char> v(1u<<30);"
                     "long s=0;for(size_t i=0;i<v.size();i+=4096){v[i]=(char)i;s+=v[i];}"
                     "printf(\"%ld\\n\",s);}\n", language=54, memory_limit=128000)),
    ("no_expected_py", dict(source_code="print('hello')\n", language=LanguageAlias.PYTHON,
                            expected_output=None)),
]


def decoded(message):
    """`message`, which Judge0 base64-encodes with the other texts under base64_encoded=true
    and the SDK leaves as it came."""
    try:
        return base64.b64decode(message, validate=True).decode() if message else message
    except ValueError:
        return message


def seen(sub):
    status = sub.status
    return {"status_id": int(status) if status is not None else None,
            "status": str(status) if status is not None else None,
            "stdout": sub.stdout, "compile_output": (sub.compile_output or "")[:300],
            "time": sub.time, "memory": sub.memory, "exit_code": sub.exit_code, "message": decoded(sub.message),
            "token": str(sub.token) if sub.token else None}


def attempt(fn):
    try:
        return fn()
    except Exception as e:  # what the SDK raised, for the test to show
        return {"sdk_error": f"{type(e).__name__}: {e}"[:400]}


def main():
    base = sys.argv[1].rstrip("/")
    client = judge0.Client(base)
    out = {"client": "judge0", "version": version("judge0"),
           "language_ids": sorted(lang.id for lang in client.languages),
           "about_version": client.version,
           "max_batch": client.config.max_submission_batch_size, "cases": {}}
    for name, fields in SINGLE:
        fields = dict(fields)
        fields.setdefault("stdin", "2 3\n")
        fields.setdefault("expected_output", "5\n")
        out["cases"][name] = attempt(lambda: seen(judge0.run(client=client, submissions=Submission(**fields))))
    # The SDK's default language is its "Python for ML" (Judge0 Extra CE's): name CE's.
    batch = [Submission(source_code=SUM_PY, language=LanguageAlias.PYTHON, stdin=f"{i} {i}\n",
                        expected_output=f"{2 * i}\n") for i in range(3)]
    batch[2].expected_output = "7\n"
    out["cases"]["batch"] = attempt(lambda: [seen(s) for s in judge0.run(client=client, submissions=batch)])

    def async_then_wait():
        sub = judge0.async_run(client=client, source_code=SUM_PY, language=LanguageAlias.PYTHON,
                               stdin="40 2\n", expected_output="42\n")
        created = str(sub.status) if sub.status is not None else None
        judge0.wait(client=client, submissions=sub)
        return {"after_create": created, **seen(sub)}

    out["cases"]["async_wait"] = attempt(async_then_wait)
    print(json.dumps(out, default=str))


if __name__ == "__main__":
    main()
