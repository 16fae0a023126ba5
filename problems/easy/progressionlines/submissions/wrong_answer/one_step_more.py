# Counts n steps of d instead of n - 1: the terms run from a + d to a + nd.
def solve(a, d, n):
    return n * a + d * (n * (n + 1) // 2)


a = int(input())
d = int(input())
n = int(input())
print(solve(a, d, n))
