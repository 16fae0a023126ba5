def solve(a, b, c):
    best = 0
    for second in range(min(b, c // 2) + 1):
        first = min(a, (b - second) // 2)
        best = max(best, 3 * (first + second))
    return best


a, b, c = map(int, input().split())
print(solve(a, b, c))
