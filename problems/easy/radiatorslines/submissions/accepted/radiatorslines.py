def solve(c, s):
    q, r = divmod(s, c)
    return r * (q + 1) ** 2 + (c - r) * q ** 2


c = int(input())
s = int(input())
print(solve(c, s))
