# Gives every radiator s // c sections and forgets the remaining s % c.
def solve(c, s):
    return c * (s // c) ** 2


c = int(input())
s = int(input())
print(solve(c, s))
