import sys


# Calls zero positive.
def solve(n):
    return "positive" if n >= 0 else "negative"


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
