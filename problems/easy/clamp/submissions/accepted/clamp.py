def solve(x, l, r):
    return max(l, min(x, r))


x, l, r = map(int, input().split())
print(solve(x, l, r))
