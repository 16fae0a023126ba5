import sys


def solve(s):
    return s[1:-1]


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(line))
