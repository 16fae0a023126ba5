#!/usr/bin/env python3
"""Writes data/secret/*.in for `closestapproach`; deterministic (fixed seed). Run from the package folder."""
import random

rng = random.Random(4)
C = 10**4


def query(spread=C, tmax=C):
    c = lambda: rng.randint(-spread, spread)
    return (c(), c(), c(), c(), c(), c(), c(), c(), rng.randint(0, tmax))


def write(name, queries):
    with open(f"data/secret/{name}.in", "w") as f:
        f.write(f"{len(queries)}\n")
        f.write("".join(" ".join(map(str, q)) + "\n" for q in queries))


write("01-edge", [
    (0, 0, 0, 0, 0, 0, 0, 0, 0),               # same place, no time
    (-C, -C, C, C, C, C, -C, -C, C),           # head-on at full speed
    (C, C, 0, 0, -C, -C, 0, 0, C),             # both still, far apart
    (0, 0, 3, 4, 6, 8, 0, 0, 1),               # meets exactly at T = 2 > 1: closest at T
    (0, 0, 1, 0, -5, 0, 1, 0, 7),              # parallel, same speed
    (1, 1, -1, 0, 0, 0, 0, 0, C),              # closest at t = 1 to a point
])
write("02-small", [query(10, 10) for _ in range(1000)])
write("03-random", [query() for _ in range(60000)])
# Relative motion nearly parallel to the offset: the minimum is tiny and cancellation matters.
write("04-near-miss", [(0, 0, C, C - 1, C, C, 0, 0, C) for _ in range(10)] + [query(100, C) for _ in range(30000)])
