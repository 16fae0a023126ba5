# Starts the sequence at 0, 1: gives F_(n-1) instead of F_n.
def solve(n):
    a, b = 0, 1
    for _ in range(n - 1):
        a, b = b, a + b
    return a


n = int(input())
print(solve(n))
