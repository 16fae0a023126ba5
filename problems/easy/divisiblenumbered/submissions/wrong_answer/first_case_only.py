def solve(a, b):
    return "YES" if a % b == 0 else "NO"


t = int(input())
for i in range(1, 1 + 1):
    a, b = map(int, input().split())
    print(f"Case #{i}: {solve(a, b)}")
