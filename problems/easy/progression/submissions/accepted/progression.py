def solve(a, d, n):
    return n * a + d * (n * (n - 1) // 2)


a, d, n = map(int, input().split())
print(solve(a, d, n))
