def solve(n, k):
    return n // k


n, k = map(int, input().split())
print(solve(n, k))
