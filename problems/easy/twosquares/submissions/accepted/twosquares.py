def solve(a, b):
    return a * a + b * b


a, b = map(int, input().split())
print(solve(a, b))
