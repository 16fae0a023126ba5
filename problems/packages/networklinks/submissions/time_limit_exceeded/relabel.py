# Keeps a component label per computer and relabels all n computers on every new cable.
import sys

data = sys.stdin.buffer.read().split()
n, q = int(data[0]), int(data[1])
label = list(range(n + 1))
out = []
for j in range(q):
    kind, a, b = data[2 + 3 * j], int(data[3 + 3 * j]), int(data[4 + 3 * j])
    if kind == b"?":
        out.append("yes" if label[a] == label[b] else "no")
    elif label[a] != label[b]:
        old, new = label[a], label[b]
        label = [new if x == old else x for x in label]
print("\n".join(out))
