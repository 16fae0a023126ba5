def solve(a, b, c):
    return sorted([a, b, c])[1]


a, b, c = map(int, input().split())
print(solve(a, b, c))
