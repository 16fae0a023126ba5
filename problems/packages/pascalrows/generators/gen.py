#!/usr/bin/env python3
"""Writes data/secret/*.in for `pascalrows`. Run from the package folder."""

for name, n in {"01-one": 1, "02-small": 40, "03-wrap": 120, "04-medium": 500, "05-max": 1000}.items():
    with open(f"data/secret/{name}.in", "w") as f:
        f.write(f"{n}\n")
