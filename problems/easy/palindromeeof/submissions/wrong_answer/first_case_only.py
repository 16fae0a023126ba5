import sys


def solve(s):
    return "YES" if s == s[::-1] else "NO"


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(line))
