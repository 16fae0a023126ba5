def solve(p, q, d):
    return p * q * (100 - d) // 100


t = int(input())
for i in range(1, t + 1):
    p, q, d = map(int, input().split())
    print(f"Case #{i}: {solve(p, q, d)}")
