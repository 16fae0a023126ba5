import sys


def solve(c):
    return c * 9 // 5 + 32


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(*map(int, line.split())))
