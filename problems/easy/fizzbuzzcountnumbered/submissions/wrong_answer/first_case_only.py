def solve(n):
    return n // 3 + n // 5 - n // 15


t = int(input())
for i in range(1, 1 + 1):
    n = int(input())
    print(f"Case #{i}: {solve(n)}")
