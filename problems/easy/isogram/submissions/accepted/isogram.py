def solve(s):
    return "YES" if len(set(s)) == len(s) else "NO"


s = input()
print(solve(s))
