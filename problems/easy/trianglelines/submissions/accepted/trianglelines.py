def solve(a, b, c):
    return "YES" if a < b + c and b < a + c and c < a + b else "NO"


a = int(input())
b = int(input())
c = int(input())
print(solve(a, b, c))
