# Gives every radiator s // c sections and forgets the remaining s % c.
def solve(c, s):
    return c * (s // c) ** 2


c, s = map(int, input().split())
print(solve(c, s))
