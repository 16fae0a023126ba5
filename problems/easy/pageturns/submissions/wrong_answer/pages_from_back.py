# Counts the pages after p and halves them, instead of counting the spreads.
def solve(n, p):
    return min(p // 2, (n - p) // 2)


n, p = map(int, input().split())
print(solve(n, p))
