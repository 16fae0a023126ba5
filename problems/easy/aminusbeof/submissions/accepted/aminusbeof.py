import sys


def solve(a, b):
    return a - b


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
