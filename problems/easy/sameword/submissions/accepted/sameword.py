def solve(s):
    u, v = s.split(" ")
    return "YES" if u.lower() == v.lower() else "NO"


s = input()
print(solve(s))
