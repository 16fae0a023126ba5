import sys


def solve(a, b):
    return a * b % 10


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
