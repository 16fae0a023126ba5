import sys


def solve(s):
    return "YES" if len(set(s)) == len(s) else "NO"


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
