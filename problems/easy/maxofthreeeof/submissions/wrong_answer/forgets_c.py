import sys


# Compares a and b only.
def solve(a, b, c):
    return max(a, b)


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
