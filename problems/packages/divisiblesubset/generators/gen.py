#!/usr/bin/env python3
"""Writes data/{sample,secret}/*.in and *.ans for `divisiblesubset`; deterministic (fixed seed).

Run from the package folder. The answer file holds one correct group: the one given, or the
shortest run of consecutive friends whose total is a multiple of n, with its indices in
decreasing order (the reference submissions print other groups, or the same in another order).
The output validator only checks the team's group; the answer file is checked for sanity.
"""
import random

rng = random.Random(4)


def answer(a):
    n = len(a)
    last = {0: 0}  # prefix residue -> latest prefix length with it
    best = None
    prefix = 0
    for j, x in enumerate(a, 1):
        prefix = (prefix + x) % n
        if prefix in last and (best is None or j - last[prefix] < best[1] - best[0]):
            best = (last[prefix], j)
        last[prefix] = j
    i, j = best
    return list(range(j, i, -1))


def write(folder, name, a, group=None):
    with open(f"data/{folder}/{name}.in", "w") as f:
        f.write(f"{len(a)}\n{' '.join(map(str, a))}\n")
    group = group or answer(a)
    assert len(set(group)) == len(group) and all(1 <= i <= len(a) for i in group)
    assert sum(a[i - 1] for i in group) % len(a) == 0
    with open(f"data/{folder}/{name}.ans", "w") as f:
        f.write(f"{len(group)}\n{' '.join(map(str, group))}\n")


def with_prefix_residues(residues, n):
    """Values whose prefix sums modulo n are `residues` (starting after the empty prefix 0)."""
    a, prev = [], 0
    for r in residues:
        d = (r - prev) % n
        assert d != 0
        a.append(d + n * rng.randint(0, (10**9 - d) // n))
        prev = r
    return a


write("sample", "1", [3, 9, 4, 8, 1], [5, 3])
write("sample", "2", [7, 7, 7])

write("secret", "01-one", [10**9])
write("secret", "02-small", [rng.randint(1, 100) for _ in range(10)])
write("secret", "03-random", [rng.randint(1, 10**9) for _ in range(30000)])
# Every subset of the ones has a sum below n: only groups with the last friend work, and
# a subset-sum table over residues fills one residue per friend (n^2 / 2 steps).
n = 100000
write("secret", "04-ones", [1] * (n - 1) + [n - 1], [n, 1])
# Prefix sums take every residue once before the total, a multiple of n: the only run of
# consecutive friends is everybody.
n = 20000
order = rng.sample(range(1, n), n - 1)
write("secret", "05-everybody", with_prefix_residues(order + [0], n))
# Prefix sums repeat only at the end, where the total matches the prefix of the first half:
# the only run is the second half.
order = rng.sample(range(1, n), n - 1)
write("secret", "06-second-half", with_prefix_residues(order + [order[n // 2 - 1]], n))
