import sys


# Rounds the quotient up instead of down.
def solve(a, b):
    q = (a + b - 1) // b
    return f"{q} {a - q * b}"


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(*map(int, line.split())))
