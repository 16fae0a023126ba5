import sys


def solve(a):
    return a[-1] - a[0]


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
