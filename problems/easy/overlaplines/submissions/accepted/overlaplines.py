def solve(a, b, c, d):
    return max(0, min(b, d) - max(a, c))


a = int(input())
b = int(input())
c = int(input())
d = int(input())
print(solve(a, b, c, d))
