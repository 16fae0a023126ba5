def solve(n, k):
    return " ".join(str(n * i) for i in range(1, k + 1))


n, k = map(int, input().split())
print(solve(n, k))
