# Subtracts the wrong way round: b - a.
def solve(a, b):
    return b - a


t = int(input())
for i in range(1, t + 1):
    a, b = map(int, input().split())
    print(f"Case #{i}: {solve(a, b)}")
