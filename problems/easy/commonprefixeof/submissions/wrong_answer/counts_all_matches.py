import sys


# Counts every position where the letters agree, not stopping at the first difference.
def solve(s):
    u, v = s.split(" ")
    return sum(1 for a, b in zip(u, v) if a == b)


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
