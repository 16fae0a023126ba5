def solve(s):
    return "YES" if s == s[::-1] else "NO"


s = input()
print(solve(s))
