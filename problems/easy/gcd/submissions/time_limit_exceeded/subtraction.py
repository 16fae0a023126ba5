# Euclid by subtraction: 10^9 steps for gcd(10^9, 1).
a, b = map(int, input().split())
while a != b:
    if a > b:
        a -= b
    else:
        b -= a
print(a)
