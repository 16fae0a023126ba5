def solve(a, b):
    return abs(a - b)


a, b = map(int, input().split())
print(solve(a, b))
