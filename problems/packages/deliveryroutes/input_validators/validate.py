#!/usr/bin/env python3
"""Input validator for `deliveryroutes`: exit 42 when the input is valid, 43 otherwise."""
import sys

try:
    lines = sys.stdin.read().split("\n")
    n, m = map(int, lines[0].split(" "))
    assert 1 <= n <= 100000 and 0 <= m <= 200000
    for line in lines[1:1 + m]:
        u, v, w = map(int, line.split(" "))
        assert 1 <= u <= n and 1 <= v <= n and 1 <= w <= 10**9
    assert lines[1 + m:] == [""]
except (AssertionError, ValueError, IndexError):
    sys.exit(43)
sys.exit(42)
