import sys


# Counts the multiples of 15 twice.
def solve(n):
    return n // 3 + n // 5


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
