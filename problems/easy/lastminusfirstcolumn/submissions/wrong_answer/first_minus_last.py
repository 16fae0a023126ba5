import sys


# Subtracts the other way round: a_1 - a_n.
def solve(a):
    return a[0] - a[-1]


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
