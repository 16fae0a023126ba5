import sys


# Forgets the absolute value: only rises count.
def solve(a):
    return max(a[i + 1] - a[i] for i in range(len(a) - 1))


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
