def solve(a, b, c, d):
    return max(0, min(b, d) - max(a, c))


a, b, c, d = map(int, input().split())
print(solve(a, b, c, d))
