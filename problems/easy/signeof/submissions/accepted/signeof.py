import sys


def solve(n):
    return "positive" if n > 0 else "negative" if n < 0 else "zero"


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
