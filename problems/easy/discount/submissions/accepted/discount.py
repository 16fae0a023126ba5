def solve(p, q, d):
    return p * q * (100 - d) // 100


p, q, d = map(int, input().split())
print(solve(p, q, d))
