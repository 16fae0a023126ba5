def solve(d, h, m, s):
    return d * 86400 + h * 3600 + m * 60 + s


d = int(input())
h = int(input())
m = int(input())
s = int(input())
print(solve(d, h, m, s))
