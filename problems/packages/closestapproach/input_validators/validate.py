#!/usr/bin/env python3
"""Input validator for `closestapproach`: exit 42 when the input is valid, 43 otherwise.

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
    (k,) = ints(lines[0], 1)
    assert 1 <= k <= 100000 and len(lines) == 1 + k
    for line in lines[1:]:
        values = ints(line, 9)
        assert all(-10**4 <= v <= 10**4 for v in values[:8]) and 0 <= values[8] <= 10**4


try:
    main()
except (AssertionError, ValueError, IndexError) as error:
    print(error, file=sys.stderr)
    sys.exit(43)
sys.exit(42)
