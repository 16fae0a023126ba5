def solve(s):
    u, v = s.split(" ")
    return "YES" if sorted(u) == sorted(v) else "NO"


s = input()
print(solve(s))
