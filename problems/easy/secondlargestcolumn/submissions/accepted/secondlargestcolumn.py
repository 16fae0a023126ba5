import sys


def solve(a):
    top = max(a)
    return max(x for x in a if x < top)


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
