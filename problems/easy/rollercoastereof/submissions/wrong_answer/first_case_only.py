import sys


def solve(h, c):
    if h >= 140:
        return "YES"
    if h >= 120 and c == 1:
        return "YES"
    return "NO"


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(*map(int, line.split())))
