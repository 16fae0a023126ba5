def solve(a, b):
    return "YES" if a % b == 0 else "NO"


a, b = map(int, input().split())
print(solve(a, b))
