#!/usr/bin/env python3
"""Input validator for `deliveryroutes`: exit 42 when the input is valid, 43 otherwise.

Strict: integers in canonical decimal (no `+`, no leading zeros, no `-0`), tokens
separated by exactly one space, every line ending in `\n`, nothing after the last line.
"""
import re
import sys

INTEGER = re.compile(r"-?(0|[1-9][0-9]*)")


def ints(line, count):
    """The `count` integers of one line."""
    tokens = line.split(" ")
    assert len(tokens) == count, f"{len(tokens)} tokens, {count} expected"
    for token in tokens:
        assert INTEGER.fullmatch(token) and token != "-0", f"not an integer: {token[:20]!r}"
    return [int(token) for token in tokens]


def main():
    text = sys.stdin.read()
    assert text.endswith("\n"), "the input does not end with a newline"
    lines = text[:-1].split("\n")
    n, m = ints(lines[0], 2)
    assert 1 <= n <= 100000 and 0 <= m <= 200000 and len(lines) == 1 + m
    for line in lines[1:]:
        u, v, w = ints(line, 3)
        assert 1 <= u <= n and 1 <= v <= n and 1 <= w <= 10**9


try:
    main()
except (AssertionError, ValueError, IndexError) as error:
    print(error, file=sys.stderr)
    sys.exit(43)
sys.exit(42)
