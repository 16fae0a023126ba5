def solve(s):
    seen = set()
    for c in s:
        if c in seen:
            return c
        seen.add(c)
    return "none"


s = input()
print(solve(s))
