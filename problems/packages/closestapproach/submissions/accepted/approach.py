import math
import sys


def main():
    data = sys.stdin.buffer.read().split()
    k = int(data[0])
    out = []
    for j in range(k):
        x1, y1, u1, w1, x2, y2, u2, w2, t = map(int, data[1 + 9 * j:10 + 9 * j])
        dx, dy, vx, vy = x2 - x1, y2 - y1, u2 - u1, w2 - w1
        vv, dv = vx * vx + vy * vy, dx * vx + dy * vy
        if vv == 0 or dv >= 0:
            best = math.hypot(dx, dy)
        elif -dv >= vv * t:
            best = math.hypot(dx + vx * t, dy + vy * t)
        else:
            best = abs(dx * vy - dy * vx) / math.sqrt(vv)
        out.append(f"{best:.9f}")
    sys.stdout.write("\n".join(out) + "\n")


main()
