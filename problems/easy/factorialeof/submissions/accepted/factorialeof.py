import sys


def solve(n):
    result = 1
    for i in range(2, n + 1):
        result *= i
    return result


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
