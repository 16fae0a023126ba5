def solve(s):
    seen = set()
    for c in s:
        if c in seen:
            return c
        seen.add(c)
    return "none"


t = int(input())
for i in range(1, 1 + 1):
    s = input()
    print(f"Case #{i}: {solve(s)}")
