def solve(a, b, c, n):
    total = a + b + c + n
    if total % 3 != 0:
        return "NO"
    return "YES" if max(a, b, c) <= total // 3 else "NO"


t = int(input())
for i in range(1, 1 + 1):
    a, b, c, n = map(int, input().split())
    print(solve(a, b, c, n))
