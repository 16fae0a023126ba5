import sys


# Halves until the number is 0: one step too many.
def solve(n):
    steps = 0
    while n > 0:
        n //= 2
        steps += 1
    return steps


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
