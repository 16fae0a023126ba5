#!/usr/bin/env python3
"""Writes data/secret/*.in for `networklinks`; deterministic (fixed seed). Run from the package folder."""
import random

rng = random.Random(8)


def write(name, n, events):
    with open(f"data/secret/{name}.in", "w") as f:
        f.write(f"{n} {len(events)}\n")
        f.write("".join(f"{kind} {a} {b}\n" for kind, a, b in events))


def random_events(n, q, link_share):
    return [("+" if rng.random() < link_share else "?", rng.randint(1, n), rng.randint(1, n)) for _ in range(q)]


write("01-single", 1, [("?", 1, 1), ("+", 1, 1), ("?", 1, 1)])
write("02-small", 50, random_events(50, 500, 0.1))
# Links i - (i + 1) in order build one long path: finds without path compression walk all of it.
n = 100000
write("03-chain", n, [("+", i, i + 1) for i in range(1, n)] + [("?", 1, rng.choice([2, n])) for _ in range(100000)])
write("04-random", 100000, random_events(100000, 100000, 0.4))
