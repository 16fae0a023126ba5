# Rounds the price of each item down before multiplying by q.
def solve(p, q, d):
    return p * (100 - d) // 100 * q


t = int(input())
for i in range(1, t + 1):
    p, q, d = map(int, input().split())
    print(f"Case #{i}: {solve(p, q, d)}")
