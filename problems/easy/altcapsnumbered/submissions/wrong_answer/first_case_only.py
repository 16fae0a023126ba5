def solve(s):
    return "".join(c.upper() if i % 2 == 0 else c for i, c in enumerate(s))


t = int(input())
for i in range(1, 1 + 1):
    s = input()
    print(f"Case #{i}: {solve(s)}")
