def solve(x, y):
    if x > 0:
        return 1 if y > 0 else 4
    return 2 if y > 0 else 3


x, y = map(int, input().split())
print(solve(x, y))
