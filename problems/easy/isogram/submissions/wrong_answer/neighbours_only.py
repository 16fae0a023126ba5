# Compares neighbouring letters only.
def solve(s):
    return "NO" if any(s[i] == s[i + 1] for i in range(len(s) - 1)) else "YES"


s = input()
print(solve(s))
