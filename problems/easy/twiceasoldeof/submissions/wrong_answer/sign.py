import sys


# Solves 2(f + x) = s + x: the equation with the roles of father and son swapped.
def solve(f, s):
    return 2 * s - f


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
