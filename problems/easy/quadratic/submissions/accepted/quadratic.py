def solve(a, b, c, x):
    return a * x * x + b * x + c


a, b, c, x = map(int, input().split())
print(solve(a, b, c, x))
