import sys


def solve(a):
    return min(a)


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
