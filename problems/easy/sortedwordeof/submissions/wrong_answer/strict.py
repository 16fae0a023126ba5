import sys


# Compares with <: a repeated letter counts as out of order.
def solve(s):
    return "YES" if all(s[i] < s[i + 1] for i in range(len(s) - 1)) else "NO"


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
