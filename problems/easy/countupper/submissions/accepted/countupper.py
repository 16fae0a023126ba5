def solve(s):
    return sum(1 for c in s if c.isupper())


s = input()
print(solve(s))
