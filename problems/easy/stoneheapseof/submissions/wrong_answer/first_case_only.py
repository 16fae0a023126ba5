import sys


def solve(a, b, c):
    best = 0
    for second in range(min(b, c // 2) + 1):
        first = min(a, (b - second) // 2)
        best = max(best, 3 * (first + second))
    return best


for line in sys.stdin.read().split("\n")[:1]:
    print(solve(*map(int, line.split())))
