import sys


def solve(a):
    best = current = a[0]
    for x in a[1:]:
        current = max(x, current + x)
        best = max(best, current)
    return best


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
