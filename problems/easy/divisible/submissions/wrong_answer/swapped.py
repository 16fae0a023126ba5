# Divides the wrong way round.
def solve(a, b):
    return "YES" if a != 0 and b % a == 0 else "NO"


a, b = map(int, input().split())
print(solve(a, b))
