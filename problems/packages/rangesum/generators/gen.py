#!/usr/bin/env python3
"""Writes data/secret/*.in for `rangesum`; deterministic (fixed seed). Run from the package folder."""
import random

rng = random.Random(2)


def write(name, values, queries):
    with open(f"data/secret/{name}.in", "w") as f:
        f.write(f"{len(values)} {len(queries)}\n{' '.join(map(str, values))}\n")
        f.write("".join(f"{l} {r}\n" for l, r in queries))


def random_query(n):
    l, r = rng.randint(1, n), rng.randint(1, n)
    return (min(l, r), max(l, r))


write("01-one", [7], [(1, 1)])
n = 1000
write("02-small", [rng.randint(0, 10**9) for _ in range(n)], [random_query(n) for _ in range(1000)])
n = 200000
# Whole-range queries make a naive loop do n * q = 3e10 additions.
write("03-max-whole", [rng.randint(1000, 9999) for _ in range(n)], [(1, n)] * 150000)
# Large values: most range sums need 64 bits.
write("04-max-random", [rng.randint(0, 10**9) for _ in range(n)], [random_query(n) for _ in range(50000)])
