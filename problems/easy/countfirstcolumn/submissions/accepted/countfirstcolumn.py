import sys


def solve(a):
    return a.count(a[0])


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
