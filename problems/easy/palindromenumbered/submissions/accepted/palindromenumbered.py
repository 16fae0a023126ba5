def solve(s):
    return "YES" if s == s[::-1] else "NO"


t = int(input())
for i in range(1, t + 1):
    s = input()
    print(f"Case #{i}: {solve(s)}")
