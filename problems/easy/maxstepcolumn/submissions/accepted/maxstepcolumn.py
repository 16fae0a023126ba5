import sys


def solve(a):
    return max(abs(a[i] - a[i + 1]) for i in range(len(a) - 1))


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
