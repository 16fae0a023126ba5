def solve(a, b):
    return "YES" if a % b == 0 else "NO"


a = int(input())
b = int(input())
print(solve(a, b))
