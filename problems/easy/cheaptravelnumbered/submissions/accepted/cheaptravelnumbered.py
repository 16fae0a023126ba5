def solve(n, m, a, b):
    cards = n // m * b + min(n % m * a, b)
    return min(cards, n * a)


t = int(input())
for i in range(1, t + 1):
    n, m, a, b = map(int, input().split())
    print(f"Case #{i}: {solve(n, m, a, b)}")
