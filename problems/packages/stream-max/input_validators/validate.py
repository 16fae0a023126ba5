#!/usr/bin/env python3
"""Input validator for `stream-max`: exit 42 when the input is valid, 43 otherwise."""
import re
import sys

data = sys.stdin.read()
if not re.fullmatch(r"\d+ \d+ \d+ \d+ \d+\n", data):
    sys.exit(43)
n, s, a, b, m = map(int, data.split())
ok = 1 <= n <= 2 * 10**7 and 2 <= m < 2**31 and all(0 <= x < m for x in (s, a, b))
sys.exit(42 if ok else 43)
