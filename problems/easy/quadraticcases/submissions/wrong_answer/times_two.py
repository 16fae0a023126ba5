# Reads x^2 as x * 2.
def solve(a, b, c, x):
    return a * x * 2 + b * x + c


t = int(input())
for i in range(1, t + 1):
    a, b, c, x = map(int, input().split())
    print(solve(a, b, c, x))
