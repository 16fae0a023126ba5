def solve(a, b, c):
    if a == b == c:
        return "equilateral"
    if a == b or b == c or a == c:
        return "isosceles"
    return "scalene"


a = int(input())
b = int(input())
c = int(input())
print(solve(a, b, c))
