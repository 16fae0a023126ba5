#!/usr/bin/env python3
"""Input validator for `risingprices`: exit 42 when the input is valid, 43 otherwise.

Strict: integers in canonical decimal (no `+`, no leading zeros, no `-0`), tokens
separated by exactly one space, every line ending in `\n`, nothing after the last line.
`--max-n N` (a test group's `input_validator_args`) lowers the bound on n.
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
    max_n = 200000
    args = sys.argv[1:]
    if args[:1] == ["--max-n"]:
        max_n = min(max_n, int(args[1]))
    (n,) = ints(lines[0], 1)
    assert 1 <= n <= max_n and len(lines) == 2, f"n = {n}, at most {max_n} here"
    assert all(1 <= v <= 10**9 for v in ints(lines[1], n))


try:
    main()
except (AssertionError, ValueError, IndexError) as error:
    print(error, file=sys.stderr)
    sys.exit(43)
sys.exit(42)
