# Forgets the case where the two never overlap: the answer goes negative.
def solve(a, b, c, d):
    return min(b, d) - max(a, c)


a, b, c, d = map(int, input().split())
print(solve(a, b, c, d))
