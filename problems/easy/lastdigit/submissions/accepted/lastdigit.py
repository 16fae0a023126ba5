def solve(a, b):
    return a * b % 10


a, b = map(int, input().split())
print(solve(a, b))
