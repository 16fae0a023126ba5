import sys


def solve(a):
    return max(a)


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
