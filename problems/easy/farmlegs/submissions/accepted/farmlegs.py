def solve(c, k):
    return 2 * c + 4 * k


c, k = map(int, input().split())
print(solve(c, k))
