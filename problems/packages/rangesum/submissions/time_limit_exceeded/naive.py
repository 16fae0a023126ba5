# Sums every range with the built-in sum over a slice: still O(n q).
import sys

data = sys.stdin.buffer.read().split()
n, q = int(data[0]), int(data[1])
a = list(map(int, data[2:2 + n]))
out = []
for j in range(q):
    l, r = int(data[2 + n + 2 * j]), int(data[3 + n + 2 * j])
    out.append(sum(a[l - 1:r]))
print("\n".join(map(str, out)))
