import sys


def solve(a):
    return max(a) - min(a)


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
