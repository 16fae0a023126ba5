#!/usr/bin/env python3
"""Input validator for `networklinks`: exit 42 when the input is valid, 43 otherwise."""
import sys

try:
    lines = sys.stdin.read().split("\n")
    n, q = map(int, lines[0].split(" "))
    assert 1 <= n <= 200000 and 1 <= q <= 200000
    for line in lines[1:1 + q]:
        kind, a, b = line.split(" ")
        assert kind in ("+", "?") and 1 <= int(a) <= n and 1 <= int(b) <= n
    assert lines[1 + q:] == [""]
except (AssertionError, ValueError, IndexError):
    sys.exit(43)
sys.exit(42)
