import sys


def solve(n, k):
    return " ".join(str(n * i) for i in range(1, k + 1))


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(*map(int, line.split())))
