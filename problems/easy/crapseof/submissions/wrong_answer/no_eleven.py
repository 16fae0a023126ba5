import sys


# Forgets that 11 wins too: it becomes the point.
def solve(a, b):
    total = a + b
    if total == 7:
        return "win"
    if total in (2, 3, 12):
        return "lose"
    return "point"


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
