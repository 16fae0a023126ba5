def solve(d, h, m, s):
    return d * 86400 + h * 3600 + m * 60 + s


d, h, m, s = map(int, input().split())
print(solve(d, h, m, s))
