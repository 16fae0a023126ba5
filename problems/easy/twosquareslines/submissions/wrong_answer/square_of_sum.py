# Squares the sum: (a + b)^2 instead of a^2 + b^2.
def solve(a, b):
    return (a + b) ** 2


a = int(input())
b = int(input())
print(solve(a, b))
