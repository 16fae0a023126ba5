import sys


# Solves f - x = 2(s - x): counts the years into the past as positive, the sign flipped.
def solve(f, s):
    return 2 * s - f


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
