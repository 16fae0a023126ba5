import sys


def solve(s):
    return s[len(s) // 2]


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
