import sys


def solve(a, b):
    total = a + b
    if total in (7, 11):
        return "win"
    if total in (2, 3, 12):
        return "lose"
    return "point"


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(*map(int, line.split())))
