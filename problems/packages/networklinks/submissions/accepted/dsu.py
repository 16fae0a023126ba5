import sys


def main():
    data = sys.stdin.buffer.read().split()
    n, q = int(data[0]), int(data[1])
    parent = list(range(n + 1))
    out = []
    for j in range(q):
        kind, a, b = data[2 + 3 * j], int(data[3 + 3 * j]), int(data[4 + 3 * j])
        while parent[a] != a:
            parent[a] = parent[parent[a]]
            a = parent[a]
        while parent[b] != b:
            parent[b] = parent[parent[b]]
            b = parent[b]
        if kind == b"?":
            out.append("yes" if a == b else "no")
        elif a != b:
            parent[a] = b
    sys.stdout.write("\n".join(out) + "\n")


main()
