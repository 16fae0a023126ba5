def solve(c, s):
    q, r = divmod(s, c)
    return r * (q + 1) ** 2 + (c - r) * q ** 2


c, s = map(int, input().split())
print(solve(c, s))
