def solve(a, b):
    return (a + b - 1) // b


a, b = map(int, input().split())
print(solve(a, b))
