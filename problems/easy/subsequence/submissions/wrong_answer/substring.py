# Looks for u as one unbroken piece of v: ace is not found in abcde.
def solve(s):
    u, v = s.split(" ")
    return "YES" if u in v else "NO"


s = input()
print(solve(s))
