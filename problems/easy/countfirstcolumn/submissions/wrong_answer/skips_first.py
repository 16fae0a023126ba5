import sys


# Counts the equal values after the first one, leaving a_1 itself out.
def solve(a):
    return sum(1 for x in a[1:] if x == a[0])


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
