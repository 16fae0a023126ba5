def solve(n):
    return "YES" if n & (n - 1) == 0 else "NO"


n = int(input())
print(solve(n))
