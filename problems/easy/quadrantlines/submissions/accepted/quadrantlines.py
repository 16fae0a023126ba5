def solve(x, y):
    if x > 0:
        return 1 if y > 0 else 4
    return 2 if y > 0 else 3


x = int(input())
y = int(input())
print(solve(x, y))
