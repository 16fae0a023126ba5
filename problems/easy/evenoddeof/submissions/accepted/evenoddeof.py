import sys


def solve(n):
    return "even" if n % 2 == 0 else "odd"


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
