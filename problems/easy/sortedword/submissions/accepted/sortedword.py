def solve(s):
    return "YES" if "".join(sorted(s)) == s else "NO"


s = input()
print(solve(s))
