import sys


def solve(s):
    return "YES" if "".join(sorted(s)) == s else "NO"


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(line))
