#!/usr/bin/env python3
"""Writes data/secret/*.in for `sum`; deterministic (fixed seeds). Run from the package folder."""
import random

def write(name, values):
    with open(f"data/secret/{name}.in", "w") as f:
        f.write(f"{len(values)}\n{' '.join(map(str, values))}\n")

rng = random.Random(1)
write("01-single", [-1000000000])
write("02-small", [rng.randint(-100, 100) for _ in range(10)])
write("03-max-positive", [10**9] * 200000)
write("04-max-negative", [-10**9] * 100000)
write("05-random", [rng.randint(-10**9, 10**9) for _ in range(200000)])
