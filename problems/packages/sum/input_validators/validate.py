#!/usr/bin/env python3
"""Input validator for `sum`: exit 42 when the input is valid, 43 otherwise."""
import re
import sys

def main():
    data = sys.stdin.read()
    if not re.fullmatch(r"[0-9]+\n-?[0-9]+( -?[0-9]+)*\n", data):
        return 43
    first, second = data.split("\n")[:2]
    n = int(first)
    values = [int(x) for x in second.split()]
    if not 1 <= n <= 200000 or len(values) != n:
        return 43
    if any(abs(v) > 10**9 for v in values):
        return 43
    return 42

sys.exit(main())
