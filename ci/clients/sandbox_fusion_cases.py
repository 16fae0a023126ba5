"""The `sandbox-fusion` PyPI client (set_endpoint, run_code) against `judge sandbox`.

Usage: python sandbox_fusion_cases.py BASE_URL

For Python, C++ and Java it runs six programs: accepted, wrong output, time limit,
compile error, run-time error and memory limit. It prints one JSON list, one object per
(language, case): what the client's parsed RunCodeResponse says (status, each stage's
status and return code, stdout), and the `verdict` extra field of the same request sent
raw, since the client's pydantic models drop fields they do not know.
"""

import json
import sys
from importlib.metadata import version

from sandbox_fusion import RunCodeRequest, run_code, set_endpoint

import arena_http


class LimitedRequest(RunCodeRequest):
    """The client's request with SandboxFusion's server field `memory_limit_MB`, which the
    client's own model lacks."""

    memory_limit_MB: int = -1


STDIN = "2 3\n"
EXPECTED = "5\n"

PROGRAMS = {
    "python": {
        "accepted": "a, b = map(int, input().split())\nprint(a + b)\n",
        "wrong": "a, b = map(int, input().split())\nprint(a * b + 1)\n",
        "tle": "while True:\n    pass\n",
        "ce": "def f(:\n    print(1)\n",
        "rte": "raise RuntimeError('boom')\n",
        "mle": "s = b'x' * (1 << 30)\nprint(len(s))\n",
    },
    "cpp": {
        "accepted": "#include <cstdio>\nint main(){long a,b;scanf(\"%ld %ld\",&a,&b);printf(\"%ld\\n\",a+b);}\n",
        "wrong": "#include <cstdio>\nint main(){long a,b;scanf(\"%ld %ld\",&a,&b);printf(\"%ld\\n\",a*b+1);}\n",
        "tle": "int main(){volatile unsigned long x=0;for(;;)x++;}\n",
        "ce": "int main(){ return undeclared; }\n",
        "rte": "#include <cstdlib>\nint main(){abort();}\n",
        # Touches every page: an allocation the compiler cannot leave out.
        "mle": "#include <cstdio>\n#include <vector>\nint main(){std::vector<char> v(1u<<30);long s=0;"
        "for(size_t i=0;i<v.size();i+=4096){v[i]=(char)i;s+=v[i];}printf(\"%ld\\n\",s);}\n",
    },
    "java": {
        "accepted": "import java.util.*;\npublic class Main{public static void main(String[] x){"
        "Scanner s=new Scanner(System.in);long a=s.nextLong(),b=s.nextLong();System.out.println(a+b);}}\n",
        "wrong": "import java.util.*;\npublic class Main{public static void main(String[] x){"
        "Scanner s=new Scanner(System.in);long a=s.nextLong(),b=s.nextLong();System.out.println(a*b+1);}}\n",
        "tle": "public class Main{public static void main(String[] x){long i=0;while(true){i++;}}}\n",
        "ce": "public class Main{public static void main(String[] x){int y = ;}}\n",
        "rte": "public class Main{public static void main(String[] x){throw new RuntimeException(\"boom\");}}\n",
        # Native memory outside the heap (-Xmx caps only the heap): the cgroup's limit.
        "mle": "import java.lang.reflect.Field;\npublic class Main{public static void main(String[] x) throws Exception{"
        "Field f=sun.misc.Unsafe.class.getDeclaredField(\"theUnsafe\");f.setAccessible(true);"
        "sun.misc.Unsafe u=(sun.misc.Unsafe)f.get(null);long n=1L<<30;long p=u.allocateMemory(n);"
        "u.setMemory(p,n,(byte)1);System.out.println(u.getByte(p+n/2));}}\n",
    },
}


def stage(result):
    if result is None:
        return None
    return {"status": result.status.value, "return_code": result.return_code,
            "stdout": result.stdout, "stderr": (result.stderr or "")[-400:]}


def main():
    base = sys.argv[1].rstrip("/")
    set_endpoint(base)
    observed = []
    for language, cases in PROGRAMS.items():
        for case, code in cases.items():
            req = LimitedRequest(code=code, language=language, stdin=STDIN, run_timeout=2,
                                 compile_timeout=30, memory_limit_MB=256)
            row = {"language": language, "case": case, "expected_stdout": EXPECTED}
            try:
                resp = run_code(req, max_attempts=1)
                row.update(status=resp.status.value, compile=stage(resp.compile_result),
                           run=stage(resp.run_result))
            except Exception as e:  # the client raises on non-200 and on SandboxError
                row["client_error"] = str(e)[:400]
            status, raw = arena_http.request("POST", base + "/run_code", req.dict())
            row["raw_http_status"] = status
            if isinstance(raw, dict):
                run = raw.get("run_result") or {}
                comp = raw.get("compile_result") or {}
                row["raw_verdict"] = run.get("verdict") or comp.get("verdict")
            observed.append(row)
    print(json.dumps({"client": "sandbox-fusion", "version": version("sandbox-fusion"),
                      "cases": observed}))


if __name__ == "__main__":
    main()
