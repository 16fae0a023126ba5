"""Input validator for Pair Sums (exit 42 when valid)."""

import sys

lines = sys.stdin.read().split("\n")
try:
    n, k = map(int, lines[0].split())
    a = list(map(int, lines[1].split()))
except (ValueError, IndexError):
    sys.exit(43)
ok = 1 <= n <= 200000 and abs(k) <= 2 * 10**9 and len(a) == n and all(abs(x) <= 10**9 for x in a)
sys.exit(42 if ok and lines[2:] == [""] else 43)
