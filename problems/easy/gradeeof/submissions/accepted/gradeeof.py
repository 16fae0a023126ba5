import sys


def solve(s):
    if s >= 90:
        return "A"
    if s >= 80:
        return "B"
    if s >= 70:
        return "C"
    if s >= 60:
        return "D"
    return "F"


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
