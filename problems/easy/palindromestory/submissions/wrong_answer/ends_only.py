# Compares the first and the last letter only.
def solve(s):
    return "YES" if s[0] == s[-1] else "NO"


s = input()
print(solve(s))
