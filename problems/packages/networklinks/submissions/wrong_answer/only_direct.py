# Remembers only direct cables, not paths through other computers.
import sys

data = sys.stdin.buffer.read().split()
n, q = int(data[0]), int(data[1])
cables = set()
out = []
for j in range(q):
    kind, a, b = data[2 + 3 * j], int(data[3 + 3 * j]), int(data[4 + 3 * j])
    if kind == b"+":
        cables.add((a, b))
        cables.add((b, a))
    else:
        out.append("yes" if a == b or (a, b) in cables else "no")
print("\n".join(out))
