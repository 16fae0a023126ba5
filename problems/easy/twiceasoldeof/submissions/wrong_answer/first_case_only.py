import sys


def solve(f, s):
    return f - 2 * s


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(*map(int, line.split())))
