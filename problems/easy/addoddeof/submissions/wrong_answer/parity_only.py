import sys


# Looks only at the parity of the difference, not at its direction.
def solve(a, b):
    d = b - a
    if d == 0:
        return 0
    return 1 if d % 2 == 1 else 2


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
