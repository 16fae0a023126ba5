def solve(n):
    levels = 0
    used = 0
    while used + (levels + 1) * (levels + 2) // 2 <= n:
        levels += 1
        used += levels * (levels + 1) // 2
    return levels


t = int(input())
for i in range(1, 1 + 1):
    n = int(input())
    print(f"Case #{i}: {solve(n)}")
