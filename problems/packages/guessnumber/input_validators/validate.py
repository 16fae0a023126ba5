"""Input validator: one line `n x` with 1 <= x <= n <= 10^9 (exit 42 when valid)."""

import re
import sys

text = sys.stdin.read()
if not re.fullmatch(r"[1-9][0-9]* [1-9][0-9]*\n", text):
    sys.exit(43)
n, x = map(int, text.split())
sys.exit(42 if 1 <= x <= n <= 10**9 else 43)
