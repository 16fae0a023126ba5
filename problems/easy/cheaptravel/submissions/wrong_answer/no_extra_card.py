# Pays the rides left after the full cards singly, never with one more card.
def solve(n, m, a, b):
    return min(n // m * b + n % m * a, n * a)


n, m, a, b = map(int, input().split())
print(solve(n, m, a, b))
