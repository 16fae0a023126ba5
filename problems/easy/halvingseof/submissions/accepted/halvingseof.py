import sys


def solve(n):
    steps = 0
    while n > 1:
        n //= 2
        steps += 1
    return steps


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
