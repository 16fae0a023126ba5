# Rounds the price of each item down before multiplying by q.
def solve(p, q, d):
    return p * (100 - d) // 100 * q


p, q, d = map(int, input().split())
print(solve(p, q, d))
