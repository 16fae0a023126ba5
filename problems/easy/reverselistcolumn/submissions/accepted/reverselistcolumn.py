import sys


def solve(a):
    return " ".join(map(str, reversed(a)))


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
