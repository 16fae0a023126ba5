def solve(a, b, c, x):
    return a * x * x + b * x + c


t = int(input())
for i in range(1, 1 + 1):
    a, b, c, x = map(int, input().split())
    print(solve(a, b, c, x))
