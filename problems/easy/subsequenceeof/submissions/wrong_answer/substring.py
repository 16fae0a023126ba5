import sys


# Looks for u as one unbroken piece of v: ace is not found in abcde.
def solve(s):
    u, v = s.split(" ")
    return "YES" if u in v else "NO"


for line in sys.stdin.read().split("\n")[:-1]:
    print(solve(line))
