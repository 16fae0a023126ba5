def solve(a, b):
    d = b - a
    if d == 0:
        return 0
    if (d > 0 and d % 2 == 1) or (d < 0 and d % 2 == 0):
        return 1
    return 2


a, b = map(int, input().split())
print(solve(a, b))
