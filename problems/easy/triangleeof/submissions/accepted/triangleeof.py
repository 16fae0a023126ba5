import sys


def solve(a, b, c):
    return "YES" if a < b + c and b < a + c and c < a + b else "NO"


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
