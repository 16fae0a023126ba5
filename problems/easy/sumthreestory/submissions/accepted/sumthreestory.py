def solve(a, b, c):
    return a + b + c


a, b, c = map(int, input().split())
print(solve(a, b, c))
