def solve(a, b):
    return min(a, b, (a + b) // 3)


a, b = map(int, input().split())
print(solve(a, b))
