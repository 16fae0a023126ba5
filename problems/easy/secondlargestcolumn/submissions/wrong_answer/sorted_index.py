import sys


# Sorts and takes the second to last value: wrong when the maximum repeats.
def solve(a):
    return sorted(a)[-2]


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
