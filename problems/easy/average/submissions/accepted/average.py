def solve(a, b):
    return (a + b) // 2


a, b = map(int, input().split())
print(solve(a, b))
