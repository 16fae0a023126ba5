# Finds the earliest letter that occurs again later: abba gives a, not b.
def solve(s):
    for c in s:
        if s.count(c) > 1:
            return c
    return "none"


t = int(input())
for i in range(1, t + 1):
    s = input()
    print(f"Case #{i}: {solve(s)}")
