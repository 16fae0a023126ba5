#!/usr/bin/env python3
"""Input validator for `closestapproach`: exit 42 when the input is valid, 43 otherwise."""
import sys

try:
    lines = sys.stdin.read().split("\n")
    k = int(lines[0])
    assert 1 <= k <= 100000 and lines[0] == str(k)
    for line in lines[1:1 + k]:
        values = list(map(int, line.split(" ")))
        assert len(values) == 9
        assert all(-10**4 <= v <= 10**4 for v in values[:8]) and 0 <= values[8] <= 10**4
    assert lines[1 + k:] == [""]
except (AssertionError, ValueError, IndexError):
    sys.exit(43)
sys.exit(42)
