# Forgets the case where the two never overlap: the answer goes negative.
def solve(a, b, c, d):
    return min(b, d) - max(a, c)


a = int(input())
b = int(input())
c = int(input())
d = int(input())
print(solve(a, b, c, d))
