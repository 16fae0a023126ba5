# Puts the boundary ages on the wrong side.
def solve(x):
    if x <= 12:
        return 5
    if x > 65:
        return 7
    return 10


x = int(input())
print(solve(x))
