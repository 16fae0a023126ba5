def solve(n, p):
    return min(p // 2, n // 2 - p // 2)


t = int(input())
for i in range(1, 1 + 1):
    n, p = map(int, input().split())
    print(solve(n, p))
