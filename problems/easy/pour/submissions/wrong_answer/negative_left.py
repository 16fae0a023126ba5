# Forgets that the second bottle can run dry: the answer goes negative.
def solve(a, b, c):
    return c - (a - b)


a, b, c = map(int, input().split())
print(solve(a, b, c))
