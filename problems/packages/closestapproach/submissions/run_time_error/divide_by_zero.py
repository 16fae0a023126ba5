# Divides by |v|^2 even when the drones have the same velocity.
import math
import sys

data = sys.stdin.buffer.read().split()
k = int(data[0])
for j in range(k):
    x1, y1, u1, w1, x2, y2, u2, w2, t = map(int, data[1 + 9 * j:10 + 9 * j])
    dx, dy, vx, vy = x2 - x1, y2 - y1, u2 - u1, w2 - w1
    s = min(max(-(dx * vx + dy * vy) / (vx * vx + vy * vy), 0), t)
    print(f"{math.hypot(dx + vx * s, dy + vy * s):.9f}")
