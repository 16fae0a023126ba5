# Forgets that time is limited to [0, T]: uses the closest approach over all times.
import math
import sys

data = sys.stdin.buffer.read().split()
k = int(data[0])
for j in range(k):
    x1, y1, u1, w1, x2, y2, u2, w2, t = map(int, data[1 + 9 * j:10 + 9 * j])
    dx, dy, vx, vy = x2 - x1, y2 - y1, u2 - u1, w2 - w1
    vv = vx * vx + vy * vy
    print(f"{abs(dx * vy - dy * vx) / math.sqrt(vv) if vv else math.hypot(dx, dy):.9f}")
