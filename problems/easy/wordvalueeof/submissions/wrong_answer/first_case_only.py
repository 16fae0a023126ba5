import sys


def solve(s):
    return sum(ord(c) - ord("a") + 1 for c in s)


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(line))
