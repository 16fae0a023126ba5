#!/usr/bin/env python3
"""Input validator for `divisiblesubset`: exit 42 when the input is valid, 43 otherwise."""
import re
import sys


def main():
    text = sys.stdin.read()
    assert re.fullmatch(r"[0-9]+\n[0-9]+( [0-9]+)*\n", text)
    lines = text.split("\n")
    n = int(lines[0])
    assert 1 <= n <= 100000
    values = lines[1].split(" ")
    assert len(values) == n
    for v in values:
        assert v == str(int(v)) and 1 <= int(v) <= 10**9


try:
    main()
except (AssertionError, ValueError, IndexError):
    sys.exit(43)
sys.exit(42)
