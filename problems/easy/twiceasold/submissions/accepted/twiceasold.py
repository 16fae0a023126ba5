def solve(f, s):
    return f - 2 * s


f, s = map(int, input().split())
print(solve(f, s))
