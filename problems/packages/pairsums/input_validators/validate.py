#!/usr/bin/env python3
"""Input validator for `pairsums`: exit 42 when the input is valid, 43 otherwise.

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
    n, k = ints(lines[0], 2)
    assert 1 <= n <= 200000 and abs(k) <= 2 * 10**9 and len(lines) == 2
    assert all(abs(x) <= 10**9 for x in ints(lines[1], n))


try:
    main()
except (AssertionError, ValueError, IndexError) as error:
    print(error, file=sys.stderr)
    sys.exit(43)
sys.exit(42)
