def solve(n):
    k = (n + 1) // 2
    return k * k


n = int(input())
print(solve(n))
