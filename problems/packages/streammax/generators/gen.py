#!/usr/bin/env python3
"""Writes data/secret/*.in for `streammax`; the inputs are hand-picked parameters. Run from the package folder."""

TESTS = {
    "01-tiny": (1, 5, 3, 4, 11),
    "02-all-negative": (1000, 0, 1, 0, 1000),
    "03-small-random": (100000, 12345, 1103515245, 12345, 2147483647),
    "04-max-random": (20000000, 987654321, 48271, 11, 2147483647),
    # x_i = i: every reading is negative, the best stretch is the last reading alone.
    "05-max-all-negative": (20000000, 0, 1, 1, 2147483647),
}

for name, values in TESTS.items():
    with open(f"data/secret/{name}.in", "w") as f:
        f.write(" ".join(map(str, values)) + "\n")
