import sys


def solve(n):
    return n * (n + 1) * (2 * n + 1) // 6


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(*map(int, line.split())))
