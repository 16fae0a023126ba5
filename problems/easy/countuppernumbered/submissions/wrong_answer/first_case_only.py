def solve(s):
    return sum(1 for c in s if c.isupper())


t = int(input())
for i in range(1, 1 + 1):
    s = input()
    print(f"Case #{i}: {solve(s)}")
