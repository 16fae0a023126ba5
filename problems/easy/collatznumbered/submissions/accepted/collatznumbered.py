def solve(n):
    steps = 0
    while n != 1:
        n = n // 2 if n % 2 == 0 else 3 * n + 1
        steps += 1
    return steps


t = int(input())
for i in range(1, t + 1):
    n = int(input())
    print(f"Case #{i}: {solve(n)}")
