# Checks only that every letter of u occurs somewhere in v, ignoring their order and how often they occur.
def solve(s):
    u, v = s.split(" ")
    return "YES" if all(c in v for c in u) else "NO"


s = input()
print(solve(s))
