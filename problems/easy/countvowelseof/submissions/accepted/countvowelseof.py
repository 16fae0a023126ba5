import sys


def solve(s):
    return sum(1 for c in s if c in "aeiou")


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
