import sys


def solve(a, b, c):
    return max(a, b, c)


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
