# Subtracts the wrong way round: b - a.
def solve(a, b):
    return b - a


a, b = map(int, input().split())
print(solve(a, b))
