# Compares a with b, then b with c: misses a < c when a > b.
a, b, c = map(int, input().split())
if a > b:
    print(a)
elif b > c:
    print(b)
else:
    print(c)
