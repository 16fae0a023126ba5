def solve(s):
    return "".join(c + c for c in s)


t = int(input())
for i in range(1, 1 + 1):
    s = input()
    print(f"Case #{i}: {solve(s)}")
