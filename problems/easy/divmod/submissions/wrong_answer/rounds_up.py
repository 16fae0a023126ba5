# Rounds the quotient up instead of down.
a, b = map(int, input().split())
q = (a + b - 1) // b
print(q, a - q * b)
