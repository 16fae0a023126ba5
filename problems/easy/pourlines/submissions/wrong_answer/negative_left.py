# Forgets that the second bottle can run dry: the answer goes negative.
def solve(a, b, c):
    return c - (a - b)


a = int(input())
b = int(input())
c = int(input())
print(solve(a, b, c))
