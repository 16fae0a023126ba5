#!/usr/bin/env python3
"""Writes data/secret/{1-small,2-large}/*.in for `risingprices`; deterministic (fixed seed). Run from the package folder."""
import random

rng = random.Random(7)


def write(name, values):
    with open(f"data/secret/{name}.in", "w") as f:
        f.write(f"{len(values)}\n{' '.join(map(str, values))}\n")


write("1-small/01-one", [42])
write("1-small/02-duplicates", [rng.randint(1, 5) for _ in range(300)])
write("1-small/03-random", [rng.randint(1, 10**9) for _ in range(1000)])
write("2-large/04-increasing", list(range(1, 200001)))
write("2-large/05-random", [rng.randint(1, 10**9) for _ in range(100000)])
# Few distinct values: a non-strict answer is far too long here.
write("2-large/06-duplicates", [rng.randint(1, 1000) for _ in range(200000)])
