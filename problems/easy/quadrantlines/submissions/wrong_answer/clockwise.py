# Numbers the quadrants clockwise: 2 and 4 swap.
def solve(x, y):
    if x > 0:
        return 1 if y > 0 else 2
    return 4 if y > 0 else 3


x = int(input())
y = int(input())
print(solve(x, y))
