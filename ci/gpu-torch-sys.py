"""Stubs out the generated torch-sys functions that a libtorch lacks (ci/gpu-check).

Reads a failed torch-sys build's log on standard input, takes each error's line in
torch_api_generated.cpp, and replaces the body of the function around it with one that
sets tch's error ("... is not in libtorch VERSION") and returns, so a call fails with that
error instead of the build failing. Exits 1, naming the log's first error, when an error
lies outside that file or outside a function: those are not a missing operator.

Usage: python3 ci/gpu-torch-sys.py PATH/torch_api_generated.cpp VERSION <build.log
"""
import re
import sys

path, version = sys.argv[1], sys.argv[2]
log = sys.stdin.read()
errors = [m for m in re.finditer(r"libtch/(\S+?):(\d+):\d+: error: (.*)", log)]
if not errors:
    m = re.search(r"^error.*$", log, re.M)
    sys.exit(f"gpu-torch-sys: the build failed, but not in the C++ wrapper: {m.group(0) if m else 'no error line'}")
lines = open(path).read().split("\n")
stubbed = set()
for e in errors:
    file, line = e.group(1), int(e.group(2)) - 1
    if file != "torch_api_generated.cpp":
        sys.exit(f"gpu-torch-sys: an error outside the generated wrapper ({file}:{line + 1}: {e.group(3)})")
    start = line
    while start >= 0 and not re.match(r"^\w.*\batg_\w+\(.*\{$", lines[start]):
        start -= 1
    end = line
    while end < len(lines) and lines[end] != "}":
        end += 1
    if start < 0 or end == len(lines):
        sys.exit(f"gpu-torch-sys: error at line {line + 1} is not inside a generated function")
    if start in stubbed:
        continue
    name = re.search(r"\b(atg_\w+)\(", lines[start]).group(1)
    body = [f'  torch_last_err = strdup("{name}: not in libtorch {version}");']
    if not lines[start].startswith("void "):
        body.append("  return {};")
    lines[start + 1:end] = body + [""] * (end - start - 1 - len(body))
    stubbed.add(start)
    print(f"gpu-torch-sys: {name} stubbed (not in libtorch {version})")
open(path, "w").write("\n".join(lines))
