# The right algorithm, but 2e7 steps of interpreted Python take far longer than a second.
import sys

n, s, a, b, m = map(int, sys.stdin.read().split())
x, half = s, m // 2
best = current = None
for _ in range(n):
    x = (a * x + b) % m
    v = x - half
    current = v if current is None or current <= 0 else current + v
    if best is None or current > best:
        best = current
print(best)
