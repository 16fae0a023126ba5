def solve(a, b, c):
    return a + b + c


t = int(input())
for i in range(1, 1 + 1):
    a, b, c = map(int, input().split())
    print(f"Case #{i}: {solve(a, b, c)}")
