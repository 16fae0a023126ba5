# Numbers the quadrants clockwise: 2 and 4 swap.
def solve(x, y):
    if x > 0:
        return 1 if y > 0 else 2
    return 4 if y > 0 else 3


x, y = map(int, input().split())
print(solve(x, y))
