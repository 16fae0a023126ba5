import sys


def solve(a, b):
    d = b - a
    if d == 0:
        return 0
    if (d > 0 and d % 2 == 1) or (d < 0 and d % 2 == 0):
        return 1
    return 2


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(*map(int, line.split())))
