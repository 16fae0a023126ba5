import sys


def solve(a):
    return sum(a)


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
