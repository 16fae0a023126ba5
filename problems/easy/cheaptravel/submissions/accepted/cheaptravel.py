def solve(n, m, a, b):
    cards = n // m * b + min(n % m * a, b)
    return min(cards, n * a)


n, m, a, b = map(int, input().split())
print(solve(n, m, a, b))
