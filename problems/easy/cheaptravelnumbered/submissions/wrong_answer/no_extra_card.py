# Pays the rides left after the full cards singly, never with one more card.
def solve(n, m, a, b):
    return min(n // m * b + n % m * a, n * a)


t = int(input())
for i in range(1, t + 1):
    n, m, a, b = map(int, input().split())
    print(f"Case #{i}: {solve(n, m, a, b)}")
