"""Writes the tests of Guess the Number (deterministic: fixed seed)."""

import pathlib
import random

root = pathlib.Path(__file__).resolve().parent.parent / "data"
rng = random.Random(20261122)
tests = {
    "sample/1": (10, 6),
    "secret/01-one": (1, 1),
    "secret/02-low-end": (1000000000, 1),
    "secret/03-high-end": (1000000000, 1000000000),
    "secret/04-random": (1000000000, rng.randint(1, 10**9)),
    "secret/05-small-n": (37, rng.randint(1, 37)),
    "secret/06-power-of-two": (1 << 29, rng.randint(1, 1 << 29)),
}
for name, (n, x) in tests.items():
    (root / f"{name}.in").write_text(f"{n} {x}\n")
    (root / f"{name}.ans").write_text(f"{x}\n")
