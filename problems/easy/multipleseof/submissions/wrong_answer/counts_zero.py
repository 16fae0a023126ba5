import sys


# Counts 0 as a multiple too.
def solve(n, k):
    return n // k + 1


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
