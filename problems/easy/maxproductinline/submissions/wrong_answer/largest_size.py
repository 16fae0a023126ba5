# Multiplies the two values farthest from zero: a large negative and a large positive value give a negative product.
def solve(a):
    b = sorted(a, key=abs)
    return b[-1] * b[-2]


n, *a = map(int, input().split())
print(solve(a))
