# Forgets zero: a product with a zero factor is called negative.
def solve(a, b):
    return "positive" if (a > 0) == (b > 0) else "negative"


a = int(input())
b = int(input())
print(solve(a, b))
