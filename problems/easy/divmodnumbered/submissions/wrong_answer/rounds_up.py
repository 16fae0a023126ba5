# Rounds the quotient up instead of down.
def solve(a, b):
    q = (a + b - 1) // b
    return f"{q} {a - q * b}"


t = int(input())
for i in range(1, t + 1):
    a, b = map(int, input().split())
    print(f"Case #{i}: {solve(a, b)}")
