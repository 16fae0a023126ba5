"""Writes the tests of Pair Sums (deterministic: fixed seed); answers by counting."""

import collections
import pathlib
import random

root = pathlib.Path(__file__).resolve().parent.parent / "data"
rng = random.Random(7321)


def count(a, k):
    seen = collections.Counter()
    pairs = 0
    for x in a:
        pairs += seen[k - x]
        seen[x] += 1
    return pairs


def write(name, a, k):
    (root / f"{name}.in").write_text(f"{len(a)} {k}\n{' '.join(map(str, a))}\n")
    (root / f"{name}.ans").write_text(f"{count(a, k)}\n")


write("sample/1", [1, 5, 3, 3, 2], 6)
write("secret/1-tiny/1", [7], 14)
write("secret/1-tiny/2", [rng.randint(-5, 5) for _ in range(100)], 0)
write("secret/1-tiny/3", [rng.randint(-10**9, 10**9) for _ in range(100)], 17)
write("secret/2-medium/1", [rng.randint(1, 50) for _ in range(5000)], 51)
write("secret/2-medium/2", [rng.randint(-10**9, 10**9) for _ in range(5000)], -3)
# Many equal values: the count needs 64 bits (about 2 * 10^10 pairs).
write("secret/3-large/1", [1] * 200000, 2)
write("secret/3-large/2", [rng.randint(-1000, 1000) for _ in range(200000)], 0)
