# Assumes the shorter word always begins the longer one and answers its length.
def solve(s):
    u, v = s.split(" ")
    return min(len(u), len(v))


s = input()
print(solve(s))
