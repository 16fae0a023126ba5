#!/usr/bin/env python3
"""Input validator for `rangesum`: exit 42 when the input is valid, 43 otherwise."""
import sys


def main():
    lines = sys.stdin.read().split("\n")
    n, q = map(int, lines[0].split())
    assert 1 <= n <= 200000 and 1 <= q <= 200000
    values = list(map(int, lines[1].split()))
    assert len(values) == n and all(0 <= v <= 10**9 for v in values)
    for line in lines[2:2 + q]:
        l, r = map(int, line.split())
        assert 1 <= l <= r <= n
    assert lines[2 + q:] == [""]


try:
    main()
except (AssertionError, ValueError, IndexError):
    sys.exit(43)
sys.exit(42)
