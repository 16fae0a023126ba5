import sys


def solve(n, k):
    return n // k


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(*map(int, line.split())))
