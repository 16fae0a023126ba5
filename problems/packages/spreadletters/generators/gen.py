#!/usr/bin/env python3
"""Writes data/{sample,secret}/*.in and *.ans for `spreadletters`; deterministic (fixed seed).

Run from the package folder. The answer file holds IMPOSSIBLE or one correct order: the
greedy one that always hangs the most frequent tile allowed next, ties to the LATER letter
(the reference submissions break ties the other way or build another order). The output validator
only uses the answer to know whether an order exists, and checks it.
"""
import heapq
import random
from collections import Counter

rng = random.Random(5)
LETTERS = "abcdefghijklmnopqrstuvwxyz"


def answer(s):
    counts = Counter(s)
    if max(counts.values()) > (len(s) + 1) // 2:
        return "IMPOSSIBLE"
    heap = [(-c, -ord(ch)) for ch, c in counts.items()]
    heapq.heapify(heap)
    res, held = [], None  # `held`: the letter just hung, out of the heap for one step
    while heap:
        c, ch = heapq.heappop(heap)
        res.append(chr(-ch))
        if held:
            heapq.heappush(heap, held)
        held = (c + 1, ch) if c + 1 < 0 else None
    assert held is None and len(res) == len(s)
    return "".join(res)


def write(folder, name, s):
    assert 1 <= len(s) <= 200000
    t = answer(s)
    if t != "IMPOSSIBLE":
        assert Counter(t) == Counter(s) and all(a != b for a, b in zip(t, t[1:]))
    with open(f"data/{folder}/{name}.in", "w") as f:
        f.write(s + "\n")
    with open(f"data/{folder}/{name}.ans", "w") as f:
        f.write(t + "\n")


def shuffled(counts):
    tiles = [ch for ch, c in counts.items() for _ in range(c)]
    rng.shuffle(tiles)
    return "".join(tiles)


write("sample", "1", "banana")
write("sample", "2", "zzzy")

write("secret", "01-single", "q")
# n odd and the most frequent letter exactly (n + 1) / 2 times: it must take every other
# place, starting with the first. Possible (a check against n / 2 says otherwise).
n = 99999
write("secret", "02-tight-odd", shuffled({"e": 50000, **Counter(rng.choice(LETTERS.replace("e", "")) for _ in range(n - 50000))}))
write("secret", "03-random", "".join(rng.choice(LETTERS) for _ in range(100000)))
# One tile too many: impossible.
write("secret", "04-impossible", shuffled({"x": 50001, **Counter(rng.choice("xyz"[1:]) for _ in range(49999))}))
write("secret", "05-two-letters", shuffled({"a": 50000, "b": 50000}))
write("secret", "06-three-letters", shuffled({"k": 40000, "m": 35000, "p": 25000}))
