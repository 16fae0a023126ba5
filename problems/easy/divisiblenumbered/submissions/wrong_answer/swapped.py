# Divides the wrong way round.
def solve(a, b):
    return "YES" if a != 0 and b % a == 0 else "NO"


t = int(input())
for i in range(1, t + 1):
    a, b = map(int, input().split())
    print(f"Case #{i}: {solve(a, b)}")
