# Samples the distance at every 1/10000 of a second: far too slow, and not even exact.
# (At 1/1000, PyPy gets through the T = 10^4 edge case within problemtools' extended
# limit and the inexact answer is WA; at 1/10000 that case alone takes 10^8 steps.)
import math
import sys

data = sys.stdin.buffer.read().split()
k = int(data[0])
for j in range(k):
    x1, y1, u1, w1, x2, y2, u2, w2, t = map(int, data[1 + 9 * j:10 + 9 * j])
    dx, dy, vx, vy = x2 - x1, y2 - y1, u2 - u1, w2 - w1
    best = math.hypot(dx, dy)
    for step in range(t * 10000 + 1):
        s = step / 10000
        best = min(best, math.hypot(dx + vx * s, dy + vy * s))
    print(f"{best:.9f}")
