import sys


def solve(x):
    if x < 12:
        return 5
    if x >= 65:
        return 7
    return 10


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(*map(int, line.split())))
