# Counts the pages after p and halves them, instead of counting the spreads.
def solve(n, p):
    return min(p // 2, (n - p) // 2)


t = int(input())
for i in range(1, t + 1):
    n, p = map(int, input().split())
    print(solve(n, p))
