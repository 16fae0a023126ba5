# A recursive find with compression: the first find on a long path hits Python's recursion limit.
import sys

data = sys.stdin.buffer.read().split()
n, q = int(data[0]), int(data[1])
parent = list(range(n + 1))


def find(x):
    if parent[x] != x:
        parent[x] = find(parent[x])
    return parent[x]


out = []
for j in range(q):
    kind, a, b = data[2 + 3 * j], int(data[3 + 3 * j]), int(data[4 + 3 * j])
    if kind == b"?":
        out.append("yes" if find(a) == find(b) else "no")
    else:
        parent[find(a)] = find(b)
print("\n".join(out))
