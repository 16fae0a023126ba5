def solve(n):
    return n * (n + 1) // 2


t = int(input())
for i in range(1, t + 1):
    n = int(input())
    print(f"Case #{i}: {solve(n)}")
