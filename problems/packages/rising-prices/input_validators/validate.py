#!/usr/bin/env python3
"""Input validator for `rising-prices`: exit 42 when the input is valid, 43 otherwise."""
import re
import sys

data = sys.stdin.read()
if not re.fullmatch(r"[0-9]+\n[0-9]+( [0-9]+)*\n", data):
    sys.exit(43)
first, second = data.split("\n")[:2]
values = list(map(int, second.split()))
ok = 1 <= int(first) <= 200000 and len(values) == int(first) and all(1 <= v <= 10**9 for v in values)
sys.exit(42 if ok else 43)
