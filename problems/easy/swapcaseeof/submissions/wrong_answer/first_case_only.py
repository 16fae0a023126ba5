import sys


def solve(s):
    return s.swapcase()


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(line))
