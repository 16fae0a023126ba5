#!/usr/bin/env python3
"""Writes data/secret/*.in for `deliveryroutes`; deterministic (fixed seed). Run from the package folder."""
import random

rng = random.Random(6)
W = 10**9


def write(name, n, edges):
    with open(f"data/secret/{name}.in", "w") as f:
        f.write(f"{n} {len(edges)}\n")
        f.write("".join(f"{u} {v} {w}\n" for u, v, w in edges))


write("01-single", 1, [(1, 1, 5)])
n = 1000
write("02-small", n, [(rng.randint(1, n), rng.randint(1, n), rng.randint(1, 100)) for _ in range(3000)])
# A long path of heavy streets: distances up to 5e13 need 64 bits.
n = 50000
path = [(i, i + 1, W - rng.randint(0, 10)) for i in range(1, n)]
shortcuts = [(rng.randint(1, n), rng.randint(1, n), W) for _ in range(20000)]
edges = path + shortcuts
rng.shuffle(edges)
write("03-heavy-path", n, edges)
# A chain listed backwards: Bellman-Ford needs n rounds of m relaxations.
n = 100000
write("04-chain-backwards", n, [(i, i + 1, rng.randint(1, 9)) for i in range(n - 1, 0, -1)])
# Random sparse graph with an unreachable part (junctions above 90000 have no incoming streets from below).
n, m = 100000, 100000
edges = []
for _ in range(m):
    u = rng.randint(1, n)
    v = rng.randint(1, 90000) if u <= 90000 else rng.randint(1, n)
    edges.append((u, v, rng.randint(1, W)))
write("05-random", n, edges)
