import sys


def solve(n):
    return n // 3 + n // 5 - n // 15


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
