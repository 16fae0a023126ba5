def solve(n):
    return n * (n + 1) // 2


n = int(input())
print(solve(n))
