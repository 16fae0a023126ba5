def solve(n):
    levels = 0
    used = 0
    while used + (levels + 1) * (levels + 2) // 2 <= n:
        levels += 1
        used += levels * (levels + 1) // 2
    return levels


n = int(input())
print(solve(n))
