import sys


def solve(y):
    return "YES" if y % 4 == 0 and (y % 100 != 0 or y % 400 == 0) else "NO"


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(*map(int, line.split())))
