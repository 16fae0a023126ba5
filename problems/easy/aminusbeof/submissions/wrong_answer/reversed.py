import sys


# Subtracts the wrong way round: b - a.
def solve(a, b):
    return b - a


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
