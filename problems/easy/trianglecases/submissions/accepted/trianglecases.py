def solve(a, b, c):
    return "YES" if a < b + c and b < a + c and c < a + b else "NO"


t = int(input())
for i in range(1, t + 1):
    a, b, c = map(int, input().split())
    print(solve(a, b, c))
