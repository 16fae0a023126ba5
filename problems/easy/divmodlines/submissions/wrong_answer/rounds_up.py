# Rounds the quotient up instead of down.
def solve(a, b):
    q = (a + b - 1) // b
    return f"{q} {a - q * b}"


a = int(input())
b = int(input())
print(solve(a, b))
