# Finds the earliest letter that occurs again later: abba gives a, not b.
def solve(s):
    for c in s:
        if s.count(c) > 1:
            return c
    return "none"


s = input()
print(solve(s))
